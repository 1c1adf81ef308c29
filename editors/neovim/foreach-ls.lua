-- foreach-ls for Neovim 0.11+ (vim.lsp.config / vim.lsp.enable). Copy into your init.lua, or `dofile` it.
-- The `foreach-ls` binary must be on PATH (`cargo install --path .` in a checkout of foreach-ls).

-- Neovim knows `.tf` (terraform) and `.tfvars` (terraform-vars) but not OpenTofu's own extensions, and calls
-- `.tftest.hcl` plain hcl. The server decides what a file is from its name, so these names only choose the client.
vim.filetype.add({
  extension = { tofu = 'opentofu' },
  pattern = {
    ['.*%.tofutest%.hcl'] = 'opentofu',
    ['.*%.tftest%.hcl'] = 'terraform',
  },
})
-- Highlight OpenTofu files with the terraform tree-sitter parser when it is installed.
vim.treesitter.language.register('terraform', { 'opentofu', 'opentofu-vars' })

vim.lsp.config('foreach_ls', {
  cmd = { 'foreach-ls', 'serve' },
  filetypes = { 'terraform', 'terraform-vars', 'opentofu', 'opentofu-vars' },
  -- The project file (docs/configuration.md) first: its directory is the workspace the server checks.
  root_markers = { 'foreach-ls.toml', '.terraform', '.git' },
  -- Settings (docs/lsp.md#settings), sent as initializationOptions:
  init_options = {
    -- varFiles = { 'prod.tfvars' },
    -- variables = { environment = 'prod' },
    -- severity = { ['too-similar-for-each'] = 'off' },
    -- state = 'pulled.tfstate', -- or { ['envs/prod'] = 'prod.tfstate' }: the state to check against (docs/state.md)
  },
})
vim.lsp.enable('foreach_ls')
