// Starts `catalyst lsp` (the rules language server) for .rules files and the
// card YAML they load. The server does the work; this file only connects it.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function start() {
  const config = vscode.workspace.getConfiguration("cardRules");
  const server = {
    command: config.get("server.command", "catalyst"),
    args: config.get("server.args", ["lsp"]),
  };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "card-rules" },
      { scheme: "file", language: "yaml" }, // card data: the server answers only for files rules load
    ],
    synchronize: {
      // Files changed outside the editor (a base file, cards, a schema) are checked again.
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{rules,yaml,yml,json}"),
    },
  };
  client = new LanguageClient("cardRules", "Card game rules", { run: server, debug: server }, clientOptions);
  return client.start();
}

function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("cardRules.server")) {
        await deactivate();
        await start();
      }
    })
  );
  return start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
