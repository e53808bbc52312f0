// Asks yaml-language-server (the engine of the YAML extensions for VS Code and other editors) what an editor
// shows for one YAML file: its diagnostics, and the completions offered at given positions. The file finds its
// schema through its `# yaml-language-server: $schema=...` line, as in an editor. Used by tests/test_schema_tools.py.
// Usage: node yaml-ls-check.mjs FILE.yaml [LINE:CHARACTER ...]   (0-based, as in the Language Server Protocol)
// Prints {"diagnostics": [{"line", "character", "severity", "message"}], "completions": {"L:C": [labels]}}.
import { readFileSync } from "node:fs";
import { pathToFileURL, fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { getLanguageService } = require("yaml-language-server");
const { TextDocument } = require("vscode-languageserver-textdocument");

const [file, ...positions] = process.argv.slice(2);
const uri = pathToFileURL(file).href;
const service = getLanguageService({
  // Schemas are read from disk only: nothing is fetched from the network.
  schemaRequestService: async (schemaUri) => {
    if (!schemaUri.startsWith("file:")) throw new Error(`refusing to fetch ${schemaUri}`);
    return readFileSync(fileURLToPath(schemaUri), "utf8");
  },
  workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).href },
});
service.configure({ validate: true, completion: true, hover: true, schemas: [] });
const doc = TextDocument.create(uri, "yaml", 1, readFileSync(file, "utf8"));
const diagnostics = (await service.doValidation(doc, false)).map((d) => ({
  line: d.range.start.line, character: d.range.start.character, severity: d.severity, message: d.message,
}));
const completions = {};
for (const at of positions) {
  const [line, character] = at.split(":").map(Number);
  const list = await service.doComplete(doc, { line, character }, false);
  completions[at] = list.items.map((item) => item.label);
}
process.stdout.write(JSON.stringify({ diagnostics, completions }) + "\n");
