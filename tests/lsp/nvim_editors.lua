-- Run by tests/cli/editors.sh in `nvim --headless` on a *.gisa file: loads
-- editors/nvim/gisa.lua (the configuration docs/editors.md gives) and the
-- Vim syntax file of editors/vim, then checks the syntax groups of line 1
-- and that the configuration started `gisa lsp` (the file's diagnostic
-- arrives). Writes "ok WHAT" or "FAIL WHAT: detail" lines to $RESULT.
local editors = os.getenv('EDITORS')
vim.opt.runtimepath:prepend(editors .. '/vim')
vim.g.gisa_cmd = { os.getenv('GISA'), 'lsp', '--cache-dir', os.getenv('CACHE') }
dofile(editors .. '/nvim/gisa.lua')
vim.cmd('syntax on')
vim.cmd('filetype on')

local out = assert(io.open(os.getenv('RESULT'), 'w'))
local function report(ok, what, detail)
  out:write((ok and 'ok ' or 'FAIL ') .. what .. (ok and '' or (': ' .. vim.inspect(detail):gsub('%s+', ' '))) .. '\n')
end

local function group(line, col)
  return vim.fn.synIDattr(vim.fn.synID(line, col, 1), 'name')
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  report(vim.bo.filetype == 'gisa', 'a *.gisa file is gisa assembly', vim.bo.filetype)
  -- line 1: @!P2 DADD.RM R[12:13], R[2:3], c[0x0][0x100] $sched=2 // c
  local want = { [1] = 'gisaGuard', [6] = 'gisaGuarded', [10] = 'gisaModifier', [14] = 'gisaRegister',
                 [24] = 'gisaRegister', [32] = 'gisaBank', [34] = 'gisaNumber', [46] = 'gisaControl',
                 [55] = 'gisaComment' }
  for col, g in pairs(want) do
    report(group(1, col) == g, 'syntax: column ' .. col .. ' is ' .. g, group(1, col))
  end
  report(group(2, 1) == 'gisaDirective' and group(2, 10) == 'gisaString', 'syntax: .include "FILE"',
         { group(2, 1), group(2, 10) })
  local arrived = vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  local d = vim.diagnostic.get(buf)
  report(arrived and #d == 1 and d[1].lnum == 2, 'the configuration starts gisa lsp: the diagnostic of line 3', d)
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local ok, err = pcall(run)
    if not ok then report(false, 'the Lua test ran', err) end
    out:close()
    vim.cmd('qa!')
  end,
})
