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
-- Put the key back (the rest of the test needs a file without syntax errors).
vim.api.nvim_buf_set_text(buf, row, col, row, col, { '"use1"' })

-- Neovim sends buffer changes to the server after a debounce (150 ms) that a script only lets pass while it waits:
-- give it that time after each edit, as a user's typing would.
local function settle()
  vim.wait(400)
end

-- The requests of issue 19 through Neovim's own client: formatting (vim.lsp.buf.format), semantic tokens, folding
-- ranges, signature help, then rename (vim.lsp.buf.rename) last, since it changes names the steps above look for.
local function request(method, params)
  local r, e = client:request_sync(method, params, timeout, buf)
  if not r or r.err then
    fail(method .. ' failed: ' .. vim.inspect(r and r.err or e))
  end
  return r.result
end
local doc = { textDocument = vim.lsp.util.make_text_document_params(buf) }

-- Formatting: misalign `bucket` and let the server align it again, as format-on-save would.
local brow = line_of(buf, 'bucket   = "logs"')
vim.api.nvim_buf_set_lines(buf, brow, brow + 1, false, { '  bucket = "logs"' })
settle()
vim.lsp.buf.format({ bufnr = buf, timeout_ms = timeout, name = 'foreach_ls' })
local formatted = vim.api.nvim_buf_get_lines(buf, brow, brow + 1, false)[1]
if formatted ~= '  bucket   = "logs"' then
  fail('formatting did not align `bucket`: ' .. vim.inspect(formatted))
end
io.stdout:write('ok: formatting ' .. formatted .. '\n')

-- Semantic tokens: full, then a delta against it, and a range; `variable` is a block keyword.
local full = request('textDocument/semanticTokens/full', doc)
if not full.data or #full.data == 0 or #full.data % 5 ~= 0 or not full.resultId then
  fail('semantic tokens: ' .. vim.inspect(full))
end
local legend = client.server_capabilities.semanticTokensProvider.legend
local vrow = line_of(buf, 'variable "regions"')
local tline, tcol, ttype = 0, 0, nil
for i = 1, #full.data, 5 do
  tline = tline + full.data[i]
  tcol = (full.data[i] == 0 and tcol or 0) + full.data[i + 1]
  if tline == vrow and tcol == 0 then
    ttype = legend.tokenTypes[full.data[i + 3] + 1]
  end
end
if ttype ~= 'keyword' then
  fail('`variable` is a ' .. tostring(ttype) .. ' token, expected keyword')
end
local delta = request(
  'textDocument/semanticTokens/full/delta',
  { textDocument = doc.textDocument, previousResultId = full.resultId }
)
if not (delta.edits or delta.data) then
  fail('semantic tokens delta: ' .. vim.inspect(delta))
end
local ranged = request('textDocument/semanticTokens/range', {
  textDocument = doc.textDocument,
  range = { start = { line = vrow, character = 0 }, ['end'] = { line = vrow + 1, character = 0 } },
})
if not ranged.data or #ranged.data == 0 or #ranged.data >= #full.data then
  fail('semantic tokens range: ' .. vim.inspect(ranged))
end
io.stdout:write(('ok: semantic tokens %d, delta, range %d\n'):format(#full.data / 5, #ranged.data / 5))

-- Folding ranges: the variable block folds.
local folds = request('textDocument/foldingRange', doc)
local folded = false
for _, f in ipairs(folds) do
  if f.startLine == vrow then
    folded = true
  end
end
if not folded then
  fail('no folding range starts at the variable block: ' .. vim.inspect(folds))
end
io.stdout:write('ok: folding ranges ' .. #folds .. '\n')

-- Signature help inside a function call typed into the file.
local srow = line_of(buf, 'bucket   = "backups"')
vim.api.nvim_buf_set_lines(buf, srow, srow + 1, false, { '  bucket   = format("%s-backups", "x")' })
settle()
local scol = #'  bucket   = format("%s-backups", '
local help = request('textDocument/signatureHelp', {
  textDocument = doc.textDocument,
  position = { line = srow, character = scol },
})
if not help or not help.signatures[1].label:find('format(', 1, true) or help.activeParameter ~= 1 then
  fail('signature help: ' .. vim.inspect(help))
end
io.stdout:write('ok: signature help ' .. help.signatures[1].label .. '\n')

-- Rename `var.regions` with vim.lsp.buf.rename (prepareRename, then the workspace edit applied to the buffer).
local rrow, rtext = line_of(buf, 'var.regions')
vim.api.nvim_win_set_cursor(0, { rrow + 1, (rtext:find('regions', 1, true)) })
vim.lsp.buf.rename('areas', { bufnr = buf, name = 'foreach_ls' })
if not vim.wait(timeout, function()
  local all = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  return all:find('var.areas', 1, true) and all:find('variable "areas"', 1, true) and not all:find('regions', 1, true)
end, 50) then
  fail('rename did not change every `regions`: ' .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n'))
end
io.stdout:write('ok: rename regions -> areas\n')
os.exit(0)
