// Compiles JSON Schemas with ajv 8 (draft 2020-12) in its default strict mode, as a JavaScript user would,
// and validates JSON data files against them. Used by tests/test_schema_tools.py.
// Usage: node ajv-check.mjs SCHEMA.json [DATA.json ...]
// Prints one JSON object: {"compiled": bool, "error": text, "warnings": [...], "results": {file: [errors]}}.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaFile, ...dataFiles] = process.argv.slice(2);
const warnings = [];
// Default options (strict mode on); the logger only collects what strict mode would print as warnings.
const ajv = new Ajv2020({ allErrors: true, logger: { log() {}, warn: (...m) => warnings.push(m.join(" ")), error: (...m) => warnings.push(m.join(" ")) } });
const out = { compiled: false, error: null, warnings, results: {} };
try {
  const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, "utf8")));
  out.compiled = true;
  for (const file of dataFiles) {
    out.results[file] = validate(JSON.parse(readFileSync(file, "utf8"))) ? [] : validate.errors;
  }
} catch (err) {
  out.error = String(err && err.message ? err.message : err);
}
process.stdout.write(JSON.stringify(out) + "\n");
