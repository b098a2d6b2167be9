// The VS Code client of `gisa lsp` (docs/editors.md): starts the server for
// gisa assembly and ISA description files. `npm install` in this directory,
// then `npx @vscode/vsce package` and install the .vsix, or open the
// directory in VS Code and press F5.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const cfg = vscode.workspace.getConfiguration('gisa');
  const server = { command: cfg.get('command', 'gisa'), args: cfg.get('args', ['lsp']) };
  client = new LanguageClient('gisa', 'gisa lsp', server, {
    documentSelector: [{ scheme: 'file', language: 'gisa' }, { scheme: 'file', language: 'gisa-isa' }],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
