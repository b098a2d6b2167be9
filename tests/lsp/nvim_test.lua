-- Run by tests/cli/lsp_nvim.sh in `nvim --headless` on an assembly file
-- whose line 2 has an error: starts `gisa lsp` with Neovim's own LSP client
-- and checks, through Neovim's API, the diagnostic's range, hover on FFMA,
-- completion after `FFMA.` and go-to-definition of FFMA. Writes one line
-- per check ("ok WHAT" or "FAIL WHAT: detail") to $RESULT, then quits.
local out = assert(io.open(os.getenv('RESULT'), 'w'))
local function report(ok, what, detail)
  out:write((ok and 'ok ' or 'FAIL ') .. what .. (ok and '' or (': ' .. vim.inspect(detail):gsub('%s+', ' '))) .. '\n')
  out:flush()
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'gisa',
    cmd = { os.getenv('GISA'), 'lsp', '--cache-dir', os.getenv('CACHE') },
    root_dir = vim.fn.getcwd(),
    flags = { debounce_text_changes = 0 },
  })
  report(id ~= nil, 'the client starts', id)
  vim.lsp.buf_attach_client(buf, id)

  -- the diagnostic of line 2, `FFMA.RX`: the range of `.RX`
  local arrived = vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  local d = vim.diagnostic.get(buf)
  report(arrived and #d == 1 and d[1].lnum == 1 and d[1].col == 4 and d[1].end_lnum == 1 and d[1].end_col == 7
         and d[1].severity == vim.diagnostic.severity.ERROR and d[1].message:find('did you mean .RZ', 1, true),
         'the diagnostic arrives with the range of .RX', d)

  -- hover on FFMA: its syntax
  vim.api.nvim_win_set_cursor(0, { 2, 1 })
  local r = vim.lsp.buf_request_sync(buf, 'textDocument/hover', vim.lsp.util.make_position_params(), 15000)
  local res = r and r[id] and r[id].result
  local v = res and res.contents and res.contents.value or ''
  report(v:find('FFMA{.FTZ}{.SAT}{.rnd} Rd, {-}{|}Ra{|}', 1, true), 'hover on FFMA shows its syntax', v:sub(1, 300))

  -- completion after `FFMA.` (a line typed into the buffer: an incremental change)
  vim.api.nvim_buf_set_lines(buf, 3, 3, false, { 'FFMA.' })
  -- the server has the line once its diagnostics for it arrive (Neovim
  -- sends the change on its own schedule)
  vim.wait(15000, function() return #vim.diagnostic.get(buf) == 2 end, 20)
  vim.api.nvim_win_set_cursor(0, { 4, 4 })
  -- in insert mode the cursor would stand after the dot; normal mode keeps it on it
  local params = vim.lsp.util.make_position_params()
  params.position.character = 5
  r = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, 15000)
  res = r and r[id] and r[id].result or {}
  local labels = {}
  for _, it in ipairs(res.items or res) do labels[it.label] = true end
  report(labels.RZ and labels.FTZ, 'completion after FFMA. offers RZ', vim.tbl_keys(labels))

  -- go to definition of FFMA: the editor opens the description on its line
  vim.api.nvim_win_set_cursor(0, { 2, 1 })
  vim.lsp.buf.definition()
  vim.wait(15000, function() return vim.api.nvim_buf_get_name(0):match('falu%.isa$') ~= nil end, 20)
  local name, line = vim.api.nvim_buf_get_name(0), vim.api.nvim_get_current_line()
  report(name:match('/gisa128/falu%.isa$') and line:find('__DefOptype FFMA ', 1, true),
         'go-to-definition lands on the description line', { name, line })
  vim.lsp.stop_client(id)
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local ok, err = pcall(run)
    if not ok then report(false, 'the Lua test ran', err) end
    out:close()
    vim.cmd('qa!')
  end,
})
