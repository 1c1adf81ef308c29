"""End-to-end tests of `foreach-ls serve`, driven by pytest-lsp (a client we did not write).

The server binary comes from the FOREACH_LS environment variable (the Rust test `e2e_pytest` builds it and sets
it). Each test runs against the capabilities of a real editor: Neovim and VS Code.
"""

import os
import pathlib
import shutil
import tempfile

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = os.environ.get("FOREACH_LS", "foreach-ls")

MAIN = """variable "region" {
  default = "eu-west-1"
}

locals {
  name = "logs-${var.region}"
  bad  = local.nope
}
"""


KEYS = """provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-west-2", "eu-west-1", "us-east-1"])
  region   = each.key
}

resource "aws_s3_bucket" "logs" {
  for_each = toset(["us-east-1"])
  provider = aws.by_region[""]
}
"""


FIX = """provider "aws" {
  alias    = "by_region"
  for_each = toset([
    "us-east-1",
    "eu-west-1",
  ])
  region = each.key
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["ap-south-1"]
}

resource "aws_s3_bucket" "ok" {
  provider = aws.by_region["eu-west-1"]
}
"""


# The requests of issue 19 (formatting, highlighting, structure, rename, function help). `name` is misaligned on
# purpose (formatting aligns it); the child module's mistake tells the test that indexing is done.
EVERYDAY = """variable "region" {
  default = "eu-west-1"
}

locals {
  name = "logs-${var.region}"
  subnet = cidrsubnet("10.0.0.0/16", 8, 1)
}

module "net" {
  source = "./net"
}

# two comment
# lines
"""

NET = """output "id" {
  value = local.nope
}
"""


@pytest.fixture(scope="module")
def workspace():
    d = pathlib.Path(tempfile.mkdtemp(prefix="foreach-ls-e2e-")).resolve()
    (d / "main.tf").write_text(MAIN)
    (d / "keys").mkdir()
    (d / "keys" / "main.tf").write_text(KEYS)
    (d / "fix").mkdir()
    (d / "fix" / "main.tf").write_text(FIX)
    (d / "terragrunt.hcl").write_text("this { is not = opentofu\n")
    (d / "everyday" / "net").mkdir(parents=True)
    (d / "everyday" / "main.tf").write_text(EVERYDAY)
    (d / "everyday" / "net" / "main.tf").write_text(NET)
    yield d
    shutil.rmtree(d)


@pytest_lsp.fixture(
    # The last: Neovim's capabilities without snippet support (as with `snippetSupport = false` in a config).
    params=["neovim", "visual-studio-code", "neovim-without-snippets"],
    config=ClientServerConfig(server_command=[SERVER, "serve"]),
)
async def client(request, lsp_client: LanguageClient, workspace):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params):
        # VS Code's capabilities allow dynamic registration: the server registers its file watchers.
        assert params.registrations[0].method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        return None

    capabilities = client_capabilities(request.param.removesuffix("-without-snippets"))
    if request.param.endswith("-without-snippets"):
        capabilities.text_document.completion.completion_item.snippet_support = False
    params = types.InitializeParams(
        capabilities=capabilities,
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")],
    )
    result = await lsp_client.initialize_session(params)
    assert result.server_info.name == "foreach-ls"
    # The tests of semantic tokens decode them with the server's legend.
    lsp_client.foreach_legend = result.capabilities.semantic_tokens_provider.legend
    yield
    await lsp_client.shutdown_session()


async def diagnostics_for(client: LanguageClient, uri: str, pred):
    for _ in range(200):
        if uri in client.diagnostics and pred(client.diagnostics[uri]):
            return client.diagnostics[uri]
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    raise AssertionError(f"no matching diagnostics for {uri}: {client.diagnostics.get(uri)}")


async def test_open_diagnose_edit_hover_complete(client: LanguageClient, workspace):
    uri = (workspace / "main.tf").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="terraform", version=1, text=MAIN)
        )
    )
    diags = await diagnostics_for(client, uri, lambda d: len(d) > 0)
    assert [d.code for d in diags] == ["undefined-reference"]
    assert diags[0].range.start == types.Position(line=6, character=9)

    # Fix it with an incremental edit: `local.nope` -> `local.name`.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=6, character=15), end=types.Position(line=6, character=19)
                    ),
                    text="name",
                )
            ],
        )
    )
    await diagnostics_for(client, uri, lambda d: len(d) == 0)

    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=6, character=17)
        )
    )
    assert '"logs-eu-west-1"' in hover.contents.value

    # Type `each.` on a new line and complete.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=6, character=19), end=types.Position(line=6, character=19)
                    ),
                    text="\n  k    = each.",
                )
            ],
        )
    )
    items = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=7, character=14)
        )
    )
    labels = [i.label for i in (items.items if hasattr(items, "items") else items)]
    assert labels == ["key", "value"]

    definition = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=5, character=20)
        )
    )
    assert definition[0].range.start == types.Position(line=0, character=9)


async def test_other_hcl_files_are_left_alone(client: LanguageClient, workspace):
    uri = (workspace / "terragrunt.hcl").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="terraform", version=1, text="this { is not = opentofu\n"
            )
        )
    )
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert symbols is None
    assert not client.diagnostics.get(uri)


async def test_instance_key_completion(client: LanguageClient, workspace):
    uri = (workspace / "keys" / "main.tf").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="terraform", version=1, text=KEYS)
        )
    )
    # Type `us` between the quotes the editor paired: `aws.by_region["us"]`.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=8, character=28), end=types.Position(line=8, character=28)
                    ),
                    text="us",
                )
            ],
        )
    )
    items = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=8, character=30)
        )
    )
    items = items.items if hasattr(items, "items") else items
    ordered = sorted(items, key=lambda i: i.sort_text)
    # Keys starting with what is typed first; `eu-west-1` still has a `u` and then an `s`.
    assert [i.label for i in ordered] == ["each.key", '"us-east-1"', '"us-west-2"', '"eu-west-1"']
    key = ordered[1]
    assert key.text_edit.new_text == '"us-east-1"'
    # The typed key and the closing quote are replaced; the `]` stays.
    assert key.text_edit.range == types.Range(
        start=types.Position(line=8, character=27), end=types.Position(line=8, character=31)
    )
    assert key.filter_text == '"us-east-1"'
    assert key.detail == 'aws.by_region instance: region = "us-east-1"'


async def test_key_origin_hover_and_add_key_action(client: LanguageClient, workspace):
    uri = (workspace / "fix" / "main.tf").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="terraform", version=1, text=FIX)
        )
    )
    diags = await diagnostics_for(client, uri, lambda d: len(d) > 0)
    assert [d.code for d in diags] == ["unknown-provider-instance"]

    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=14, character=18)
        )
    )
    assert '"eu-west-1": an element of the list at `main.tf:5`' in hover.contents.value

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diags[0].range,
            context=types.CodeActionContext(diagnostics=diags),
        )
    )
    add = [a for a in actions if a.title == "Add `ap-south-1` to the instances of `aws.by_region`"]
    assert len(add) == 1
    edits = add[0].edit.changes[uri]
    # Inserted after the trailing comma of the last element, on its own line, indented like it.
    assert [(e.range.start.line, e.range.start.character, e.new_text) for e in edits] == [
        (4, 16, '\n    "ap-south-1",')
    ]


async def test_snippets_follow_the_client_capabilities(client: LanguageClient, workspace):
    # Indexing runs in the background: wait until the module's provider block is known (its file reports).
    await diagnostics_for(client, (workspace / "keys" / "main.tf").as_uri(), lambda d: len(d) > 0)
    uri = (workspace / "keys" / "snippet.tf").as_uri()
    text = 'resource "aws_s3_bucket" "s" {\n  provider = aws.b\n}\n'
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="terraform", version=1, text=text)
        )
    )
    items = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=18)
        )
    )
    items = items.items if hasattr(items, "items") else items
    item = next(i for i in items if i.label == "aws.by_region")
    if client.capabilities.text_document.completion.completion_item.snippet_support:
        assert item.insert_text_format == types.InsertTextFormat.Snippet
        assert item.text_edit.new_text == "aws.by_region[${1:each.key}]"
    else:
        assert item.insert_text_format == types.InsertTextFormat.PlainText
        assert item.text_edit.new_text == "aws.by_region[each.key]"


async def test_workspace_folders_change_at_runtime(client: LanguageClient, workspace):
    extra = pathlib.Path(tempfile.mkdtemp(prefix="foreach-ls-e2e-extra-")).resolve()
    try:
        (extra / "main.tf").write_text("locals {\n  x = local.missing\n}\n")
        uri = (extra / "main.tf").as_uri()
        folder = types.WorkspaceFolder(uri=extra.as_uri(), name="extra")
        client.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                event=types.WorkspaceFoldersChangeEvent(added=[folder], removed=[])
            )
        )
        diags = await diagnostics_for(client, uri, lambda d: len(d) > 0)
        assert [d.code for d in diags] == ["undefined-reference"]
        client.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                event=types.WorkspaceFoldersChangeEvent(added=[], removed=[folder])
            )
        )
        await diagnostics_for(client, uri, lambda d: len(d) == 0)
    finally:
        shutil.rmtree(extra)


def apply_edits(text: str, edits) -> str:
    """Applies LSP text edits (ASCII text: UTF-16 columns are bytes) the way a client does."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def at(p):
        return offsets[p.line] + p.character

    for e in sorted(edits, key=lambda e: at(e.range.start), reverse=True):
        text = text[: at(e.range.start)] + e.new_text + text[at(e.range.end) :]
    return text


def decode_tokens(data, legend):
    """(line, column, length, type) of each semantic token."""
    out, line, col = [], 0, 0
    for i in range(0, len(data), 5):
        dl, dc, length, ty = data[i : i + 4]
        line += dl
        col = col + dc if dl == 0 else dc
        out.append((line, col, length, legend.token_types[ty]))
    return out


async def test_everyday_requests(client: LanguageClient, workspace):
    uri = (workspace / "everyday" / "main.tf").as_uri()
    net = (workspace / "everyday" / "net" / "main.tf").as_uri()
    await diagnostics_for(client, net, lambda d: len(d) > 0)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="terraform", version=1, text=EVERYDAY)
        )
    )
    doc = types.TextDocumentIdentifier(uri=uri)
    opts = types.FormattingOptions(tab_size=2, insert_spaces=True)

    def pos(line, character):
        return types.TextDocumentPositionParams(text_document=doc, position=types.Position(line, character))

    # Formatting: `name` is aligned with `subnet`; a range over the aligned variable block changes nothing.
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(text_document=doc, options=opts))
    formatted = apply_edits(EVERYDAY, edits)
    assert '  name   = "logs-${var.region}"\n  subnet = cidrsubnet(' in formatted
    assert formatted.count("\n") == EVERYDAY.count("\n")
    ranged = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=doc, range=types.Range(types.Position(5, 0), types.Position(5, 5)), options=opts
        )
    )
    assert apply_edits(EVERYDAY, ranged) == formatted
    untouched = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=doc, range=types.Range(types.Position(0, 0), types.Position(2, 1)), options=opts
        )
    )
    assert not untouched

    # Semantic tokens: full (decoded with the legend), a delta after an edit, and a range.
    legend = client.foreach_legend
    full = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc))
    tokens = decode_tokens(full.data, legend)
    assert (0, 0, 8, "keyword") in tokens  # variable
    assert (5, 17, 3, "namespace") in tokens  # var
    assert (6, 11, 10, "function") in tokens  # cidrsubnet
    assert any(t[0] == 13 and t[3] == "comment" for t in tokens)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(14, 0), types.Position(14, 0)), text="# three\n"
                )
            ],
        )
    )
    delta = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(text_document=doc, previous_result_id=full.result_id)
    )
    assert len(delta.edits) == 1 and delta.edits[0].data, delta
    part = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(text_document=doc, range=types.Range(types.Position(4, 0), types.Position(8, 0)))
    )
    lines = {t[0] for t in decode_tokens(part.data, legend)}
    assert lines and min(lines) >= 4 and max(lines) <= 7, lines

    # Folding: the blocks and the run of comments.
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc))
    assert any(f.start_line == 0 and f.end_line >= 1 for f in folds), folds
    assert any(f.start_line == 4 for f in folds), folds
    assert any(f.start_line == 13 and f.kind == types.FoldingRangeKind.Comment for f in folds), folds

    # Selection ranges: from `region` in `var.region` outwards to the whole `locals` block.
    sel = await client.text_document_selection_range_async(
        types.SelectionRangeParams(text_document=doc, positions=[types.Position(5, 22)])
    )
    chain, r = [], sel[0]
    while r:
        chain.append(r.range)
        r = r.parent
    assert len(chain) >= 3
    assert chain[-1].start == types.Position(4, 0) and chain[-1].end.line == 7, chain

    # Document highlight: the declaration (write) and the reference (read) of `var.region`.
    hl = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=doc, position=types.Position(5, 22))
    )
    assert sorted((h.range.start.line, h.kind) for h in hl) == [
        (0, types.DocumentHighlightKind.Write),
        (5, types.DocumentHighlightKind.Read),
    ]

    # Workspace symbols and document links.
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="regn"))
    assert "var.region" in [s.name for s in symbols]
    links = await client.text_document_document_link_async(types.DocumentLinkParams(text_document=doc))
    assert [l.target for l in links] == [net]

    # prepareRename, rename and references of the variable.
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc, position=types.Position(5, 22))
    )
    assert prepared == types.Range(types.Position(5, 21), types.Position(5, 27))
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc, position=types.Position(5, 22), new_name="zone")
    )
    assert sorted((e.range.start.line, e.new_text) for e in edit.changes[uri]) == [(0, "zone"), (5, "zone")]
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc, position=types.Position(5, 22), context=types.ReferenceContext(include_declaration=True)
        )
    )
    assert sorted(r.range.start.line for r in refs) == [0, 5]

    # Signature help inside `cidrsubnet(…, 8, |1)` and the hover of the function name.
    help = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=doc, position=types.Position(6, 40))
    )
    assert help.signatures[0].label == "cidrsubnet(prefix string, newbits number, netnum number) string"
    assert help.active_parameter == 2
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=types.Position(6, 14)))
    assert "cidrsubnet(prefix string" in hover.contents.value
