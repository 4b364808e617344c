-- Neovim's own LSP client, headless, against `p4hls lsp`: open a P4 file
-- with an error, wait for the diagnostic, ask hover and definition, and
-- write what came back, a line per answer, to $OUT. The Go test
-- (TestNeovim) checks the lines. Written for Neovim 0.7 (Debian 12's),
-- whose client has start_client and buf_request_sync.
local out = {}
local function say(fmt, ...) table.insert(out, string.format(fmt, ...)) end

vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('P4_FILE')))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = 'p4hls',
  cmd = { os.getenv('P4HLS_BIN'), 'lsp' },
  root_dir = vim.fn.fnamemodify(os.getenv('P4_FILE'), ':h'),
})
vim.lsp.buf_attach_client(buf, id)
say('client %s, encoding %s', tostring(id ~= nil), vim.lsp.get_client_by_id(id).offset_encoding or '?')

local got = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 10)
say('diagnostics received: %s', tostring(got))
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
  say('diagnostic line %d col %d end %d:%d severity %d %s: %s', d.lnum, d.col, d.end_lnum, d.end_col, d.severity, code, d.message)
end

local uri = vim.uri_from_bufnr(buf)
local function ask(method, line, character)
  local params = { textDocument = { uri = uri }, position = { line = line, character = character } }
  local res = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
  for _, r in pairs(res) do
    if r.err then say('%s error %s', method, vim.inspect(r.err)) end
    if r.result then return r.result end
  end
  say('%s: no answer', method)
end

-- The field ttl in "hdr.ipv4.ttl = hdr.ipv4.ttl - 1;" (line 30).
local hover = ask('textDocument/hover', 29, 18)
if hover then
  for _, l in ipairs(vim.split(hover.contents.value, '\n')) do say('hover: %s', l) end
end
-- The field ipv4 of hdr.ipv4 on the same line: declared in headers.p4.
local def = ask('textDocument/definition', 29, 13)
if def then
  for _, loc in ipairs(def) do
    say('definition: %s line %d col %d', vim.fn.fnamemodify(vim.uri_to_fname(loc.uri), ':t'), loc.range.start.line, loc.range.start.character)
  end
end

vim.fn.writefile(out, os.getenv('OUT'))
vim.lsp.stop_client(id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 10)
vim.cmd('qa!')
