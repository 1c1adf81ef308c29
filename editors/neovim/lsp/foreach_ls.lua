-- foreach-ls for Neovim 0.11+: the server configuration in nvim-lspconfig's `lsp/<name>.lua` format.
-- Put this directory on 'runtimepath' (or copy the file to ~/.config/nvim/lsp/foreach_ls.lua), then call
-- vim.lsp.enable('foreach_ls'). foreach-ls.lua next to this directory does both and adds the filetypes.
---@type vim.lsp.Config
return {
  cmd = { 'foreach-ls', 'serve' },
  filetypes = { 'terraform', 'terraform-vars', 'opentofu', 'opentofu-vars' },
  -- A checkout or an initialised configuration. The server indexes every module under the root, so a module
  -- called from elsewhere is checked with its callers' values.
  -- The project file (docs/configuration.md) first: its directory is the workspace the server checks.
  root_markers = { 'foreach-ls.toml', '.terraform', '.git' },
  -- The server reads these as initializationOptions (bare or under `foreachLs`); see docs/lsp.md#settings.
  init_options = {
    -- varFiles = { 'prod.tfvars' },
    -- variables = { environment = 'prod' },
    -- severity = { ['too-similar-for-each'] = 'off' },
    -- state = 'pulled.tfstate', -- or { ['envs/prod'] = 'prod.tfstate' }: the state to check against (docs/state.md)
  },
}
