-- foreach-ls for nvim-lspconfig's classic `require('lspconfig').<name>.setup{}` API (Neovim 0.10 and older
-- configurations). With Neovim 0.11+ prefer foreach-ls.lua (vim.lsp.config / vim.lsp.enable).
local configs = require('lspconfig.configs')
local util = require('lspconfig.util')

if not configs.foreach_ls then
  configs.foreach_ls = {
    default_config = {
      cmd = { 'foreach-ls', 'serve' },
      filetypes = { 'terraform', 'terraform-vars', 'opentofu', 'opentofu-vars' },
      root_dir = util.root_pattern('foreach-ls.toml', '.terraform', '.git'),
      init_options = {},
    },
    docs = {
      description = 'foreach-ls: static checks of OpenTofu provider iteration (provider for_each).',
    },
  }
end

require('lspconfig').foreach_ls.setup({})
