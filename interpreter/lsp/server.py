"""The language server: pygls handlers over a Workspace.

Every read and change of the workspace runs on one worker thread, in the
order the editor sent them, so analyses never race the edits; the event
loop only speaks the protocol. Edits that arrive while a file is being
analysed are taken together by the next analysis.
"""
from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from . import features
from .convert import path_of
from .framing import BrokenStream, CheckedInput
from .workspace import Workspace

logger = logging.getLogger(__name__)


class RulesLanguageServer(LanguageServer):
    def __init__(self):
        super().__init__("rules-language-server", "0.1.0",
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.rules = Workspace()
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rules-analysis")
        self.publishing: asyncio.Future | None = None
        self.wanted = False  # edits not yet taken by an analysis

    # -- the worker thread
    def submit(self, fn, *args):
        """Run `fn` on the worker after everything submitted before it."""
        return self.worker.submit(self._guarded, fn, *args)

    async def call(self, fn, *args):
        return await asyncio.wrap_future(self.submit(fn, *args))

    @staticmethod
    def _guarded(fn, *args):
        try:
            return fn(*args)
        except JsonRpcException:
            raise
        except Exception:  # one failed answer must not stop the server
            logger.exception("failed: %s", getattr(fn, "__name__", fn))
            return None

    def encoding(self) -> str:
        return str(self.workspace.position_encoding or "utf-16")

    # -- diagnostics
    def document_changed(self, uri: str):
        path = path_of(uri)
        if path is None:
            return
        document = self.workspace.get_text_document(uri)
        self.submit(self.rules.change, path, document.source, document.version)
        self.publish_soon()

    def publish_soon(self):
        self.wanted = True
        if self.publishing is None or self.publishing.done():
            self.publishing = asyncio.ensure_future(self._publish_while_wanted())

    async def _publish_while_wanted(self):
        # `wanted` is set and read on the event loop only: an edit that comes
        # while an analysis runs makes this loop analyse once more.
        while self.wanted:
            self.wanted = False
            more = True
            while more:  # one file at a time, so the edited file's diagnostics go out first
                batches, more = await self.call(features.analyse_next, self.rules, self.encoding()) or ([], False)
                for uri, version, diagnostics in batches:
                    self.text_document_publish_diagnostics(
                        lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    async def settled(self):
        """Wait until the diagnostics of every edit so far are out."""
        while self.publishing is not None and not self.publishing.done():
            await asyncio.shield(self.publishing)


def create_server() -> RulesLanguageServer:
    server = RulesLanguageServer()

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: RulesLanguageServer, params):
        folders = [path_of(f.uri) for f in (ls.workspace.folders or {}).values()]
        if not folders and ls.workspace.root_uri:
            folders = [path_of(ls.workspace.root_uri)]
        ls.submit(ls.rules.scan, [f for f in folders if f])

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesLanguageServer, params: lsp.DidOpenTextDocumentParams):
        ls.document_changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesLanguageServer, params: lsp.DidChangeTextDocumentParams):
        ls.document_changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesLanguageServer, params: lsp.DidSaveTextDocumentParams):
        ls.document_changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesLanguageServer, params: lsp.DidCloseTextDocumentParams):
        path = path_of(params.text_document.uri)
        if path is not None:
            ls.submit(ls.rules.close, path)
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
            ls.publish_soon()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def files_changed(ls: RulesLanguageServer, params: lsp.DidChangeWatchedFilesParams):
        for change in params.changes:
            path = path_of(change.uri)
            if path is not None:
                ls.submit(ls.rules.disk_changed, path, change.type == lsp.FileChangeType.Deleted)
        ls.publish_soon()

    async def answer(ls: RulesLanguageServer, fn, uri: str, *args):
        path = path_of(uri)
        if path is None:
            return None
        await ls.settled()
        return await ls.call(fn, ls.rules, ls.encoding(), path, *args)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: RulesLanguageServer, params: lsp.HoverParams):
        return await answer(ls, features.hover, params.text_document.uri, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: RulesLanguageServer, params: lsp.DefinitionParams):
        return await answer(ls, features.definition, params.text_document.uri, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: RulesLanguageServer, params: lsp.ReferenceParams):
        return await answer(ls, features.references, params.text_document.uri, params.position,
                            params.context.include_declaration)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    async def completion(ls: RulesLanguageServer, params: lsp.CompletionParams):
        return await answer(ls, features.completion, params.text_document.uri, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: RulesLanguageServer, params: lsp.PrepareRenameParams):
        return await answer(ls, features.prepare_rename, params.text_document.uri, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    async def rename(ls: RulesLanguageServer, params: lsp.RenameParams):
        return await answer(ls, features.rename, params.text_document.uri, params.position, params.new_name)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbols(ls: RulesLanguageServer, params: lsp.DocumentSymbolParams):
        return await answer(ls, features.document_symbols, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    async def code_actions(ls: RulesLanguageServer, params: lsp.CodeActionParams):
        return await answer(ls, features.quick_fixes, params.text_document.uri, params.context.diagnostics)

    return server


def serve_stdio() -> str | None:
    """Serve one editor over standard input and output until it says exit;
    what broke the stream of its messages (framing.py), if something did."""
    import sys

    server = create_server()
    try:
        server.start_io(CheckedInput(sys.stdin.buffer))
    except BrokenStream as broken:
        return str(broken)
    finally:
        server.worker.shutdown(wait=False, cancel_futures=True)
    return None

