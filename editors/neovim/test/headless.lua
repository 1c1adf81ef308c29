-- Headless Neovim test of editors/neovim/foreach-ls.lua against the real server (run by
-- server/foreach-ls/tests/editor_neovim.rs; `foreach-ls` must be on PATH).
-- Usage: nvim --headless --clean -l headless.lua <snippet> <workspace>/main.tf
-- Prints `ok: ...` lines and exits 0, or prints `FAIL: ...` and exits 1.

local snippet, file = arg[1], arg[2]
local timeout = 30000

local function fail(msg)
  io.stdout:write('FAIL: ' .. msg .. '\n')
  os.exit(1)
end

local function line_of(bufnr, needle)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l:find(needle, 1, true) then
      return i - 1, l
    end
  end
  fail('no line contains ' .. needle)
end

dofile(snippet)
vim.cmd.edit(vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
if vim.bo[buf].filetype ~= 'terraform' then
  fail('filetype is ' .. vim.bo[buf].filetype .. ', expected terraform')
end

-- The server starts and attaches.
local client
if not vim.wait(timeout, function()
  client = vim.lsp.get_clients({ bufnr = buf, name = 'foreach_ls' })[1]
  return client ~= nil and client.initialized
end, 50) then
  fail('foreach_ls did not attach to ' .. file)
end
io.stdout:write('ok: attached, root ' .. tostring(client.root_dir) .. '\n')

-- Diagnostics: the wrong instance key, on the line that has it.
local bad_line = line_of(buf, 'aws.by_region["apse2"]')
local found
if not vim.wait(timeout, function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == 'unknown-provider-instance' then
      found = d
      return true
    end
  end
  return false
end, 50) then
  fail('no unknown-provider-instance diagnostic; got ' .. vim.inspect(vim.diagnostic.get(buf)))
end
if found.lnum ~= bad_line then
  fail(('unknown-provider-instance on line %d, expected %d'):format(found.lnum + 1, bad_line + 1))
end
if found.severity ~= vim.diagnostic.severity.ERROR then
  fail('unknown-provider-instance is not an error: ' .. vim.inspect(found))
end
if not found.message:find('apse2', 1, true) then
  fail('message does not name the key: ' .. found.message)
end
io.stdout:write(('ok: %d:%d error[%s] %s\n'):format(found.lnum + 1, found.col + 1, found.code, found.message))

-- Completion inside `aws.by_region[`: the instance keys. The bracket's content is typed away first, as a user
-- would (the editor keeps the closing bracket), so the request is at `aws.by_region[|]`.
local row, text = line_of(buf, 'aws.by_region["use1"]')
local col = text:find('[', 1, true)
vim.api.nvim_buf_set_text(buf, row, col, row, text:find(']', 1, true) - 1, {})
local params = {
  textDocument = vim.lsp.util.make_text_document_params(buf),
  position = { line = row, character = col },
}
local result, err = client:request_sync('textDocument/completion', params, timeout, buf)
if not result or result.err then
  fail('completion failed: ' .. vim.inspect(result and result.err or err))
end
local items = result.result and (result.result.items or result.result) or {}
local labels = {}
for _, item in ipairs(items) do
  table.insert(labels, item.label)
end
for _, key in ipairs({ 'use1', 'euw1' }) do
  local seen = false
  for _, label in ipairs(labels) do
    if label:find(key, 1, true) then
      seen = true
    end
  end
  if not seen then
    fail('completion inside aws.by_region[ lacks `' .. key .. '`: ' .. vim.inspect(labels))
  end
end
io.stdout:write('ok: completion ' .. table.concat(labels, ' ') .. '\n')
os.exit(0)
