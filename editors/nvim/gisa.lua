-- Neovim configuration for gisa (docs/editors.md): put this file where your
-- init.lua can `require` it (~/.config/nvim/lua/gisa.lua, then
-- `require('gisa')`), or paste it into init.lua. Works with Neovim 0.7 and
-- later (Debian 12 ships 0.7.2). Needs `gisa` on PATH, or set vim.g.gisa_cmd.
--  - *.gisa files are gisa assembly, *.isa files description files; *.s
--    files are too when vim.g.gisa_s_files is true (else they stay `asm`);
--  - `gisa lsp` is started once and attached to every such buffer.
vim.cmd([[
  augroup gisa_filetypes
    autocmd!
    autocmd BufRead,BufNewFile *.gisa setfiletype gisa
    autocmd BufRead,BufNewFile *.isa,*.isa.txt setfiletype gisaisa
  augroup END
]])
if vim.g.gisa_s_files then
  vim.cmd('autocmd BufRead,BufNewFile *.s set filetype=gisa')
end

local client_id
local function attach(args)
  local buf = args.buf
  if not client_id or vim.lsp.get_client_by_id(client_id) == nil then
    client_id = vim.lsp.start_client({
      name = 'gisa',
      cmd = vim.g.gisa_cmd or { 'gisa', 'lsp' },
      root_dir = vim.fn.getcwd(),
    })
  end
  if client_id then
    vim.lsp.buf_attach_client(buf, client_id)
  end
end

vim.api.nvim_create_autocmd('FileType', { pattern = { 'gisa', 'gisaisa' }, callback = attach })
