// The declarations of src/client/contract-types.ts as the client package publishes them: each alias resolved by the
// TypeScript checker for every read and written out as plain object types, so the package's .d.ts files import no
// package (zod's types stay in the repository). An object type met more than once (an author, a post's media) is
// written once and named after the first member that holds it.
import ts from 'typescript';
import { join } from 'node:path';

const PROBE = 'src/client/__contract-probe.ts';

/**
 * A program over contract-types.ts plus a probe module of `probe` text; reading the probe's aliases asks the checker
 * for the types they resolve to.
 * @param {string} root
 * @param {string} probe
 * @param {ts.Program | undefined} old
 */
function programWith(root, probe, old) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const options = { ...config.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const probePath = join(root, PROBE);
  const base = ts.createCompilerHost(options);
  host.fileExists = (f) => f === probePath || base.fileExists(f);
  host.readFile = (f) => (f === probePath ? probe : base.readFile(f));
  host.getSourceFile = (f, lang, ...rest) =>
    f === probePath ? ts.createSourceFile(f, probe, lang) : base.getSourceFile(f, lang, ...rest);
  const program = ts.createProgram([probePath], options, host, old);
  const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(probePath));
  if (errors.length) {
    throw new Error(ts.formatDiagnostics(errors, { ...host, getNewLine: () => '\n', getCanonicalFileName: (f) => f }));
  }
  return program;
}

/**
 * The probe's exported aliases, each as the text of the type it resolves to.
 * @param {ts.Program} program
 * @param {string} root
 * @returns {Map<string, string>}
 */
function resolvedAliases(program, root) {
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(join(root, PROBE));
  if (!file) throw new Error('probe missing');
  /** @type {Map<string, string>} */
  const out = new Map();
  const flags =
    ts.TypeFormatFlags.NoTruncation |
    ts.TypeFormatFlags.InTypeAlias |
    ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
    ts.TypeFormatFlags.UseStructuralFallback;
  for (const statement of file.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const type = checker.getTypeAtLocation(statement.name);
    out.set(statement.name.text, checker.typeToString(type, undefined, flags));
  }
  return out;
}

/** The members of a union of string literals, as printed: `'a' | 'b'`. */
const literals = (/** @type {string} */ union) => [...union.matchAll(/'([^']+)'/g)].map((m) => String(m[1]));

/**
 * The balanced `{ … }` spans of `text`, innermost first.
 * @param {string} text
 */
function objectSpans(text) {
  /** @type {{ start: number; end: number }[]} */
  const spans = [];
  /** @type {number[]} */
  const open = [];
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '{') open.push(i);
    else if (c === '}') spans.push({ start: /** @type {number} */ (open.pop()), end: i + 1 });
  }
  return spans;
}

const pascal = (/** @type {string} */ key) =>
  key.replace(/(^|_)([a-z])/g, (_, __, ch) => String(ch).toUpperCase()).replace(/[^A-Za-z0-9]/g, '') || 'Part';

const ALIAS_KIND = /** @type {Record<string, string>} */ ({ Q: 'Query', J: 'Body', L: 'Line' });

/**
 * A name for an object type met more than once: after the read whose whole query or body it is, else after the
 * member that holds it most often (singular when it holds a list of them).
 * @param {string} text
 * @param {string} all every alias and named part, joined
 * @param {Map<string, string>} types
 */
function nameFor(text, all, types) {
  for (const [alias, value] of types) {
    if (value === text) return pascal(alias.slice(2)) + ALIAS_KIND[alias[0] ?? ''];
  }
  /** @type {Map<string, number>} */
  const keys = new Map();
  for (let at = all.indexOf(text); at >= 0; at = all.indexOf(text, at + 1)) {
    const key = /([A-Za-z_$][\w$]*)\??:\s*\(?$/.exec(all.slice(Math.max(0, at - 80), at))?.[1];
    if (!key) continue;
    const list = all.startsWith('[]', at + text.length) || all.startsWith(')[]', at + text.length);
    const word = list ? key.replace(/ies$/, 'y').replace(/s$/, '') : key;
    keys.set(word, (keys.get(word) ?? 0) + 1);
  }
  const best = [...keys].sort((a, b) => b[1] - a[1])[0];
  return pascal(best?.[0] ?? 'Part');
}

/**
 * Names each object type that occurs more than once in `types` (largest first, so a named part holds names of its
 * own), after the member that first holds it.
 * @param {Map<string, string>} types
 * @returns {{ types: Map<string, string>; parts: Map<string, string> }}
 */
function hoist(types) {
  /** @type {Map<string, string>} name → text */
  const parts = new Map();
  const taken = new Set(types.keys());
  for (;;) {
    const all = [...types.values(), ...parts.values()].join('\n');
    /** @type {Map<string, { count: number }>} */
    const seen = new Map();
    for (const { start, end } of objectSpans(all)) {
      const text = all.slice(start, end);
      if (text.length < 80) continue;
      const entry = seen.get(text);
      if (entry) entry.count++;
      else seen.set(text, { count: 1 });
    }
    const repeated = [...seen].filter(([, e]) => e.count > 1).sort(([a], [b]) => b.length - a.length);
    const first = repeated[0];
    if (!first) break;
    const [text] = first;
    const base = nameFor(text, all, types);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    const swap = (/** @type {string} */ t) => t.split(text).join(name);
    for (const [k, v] of types) types.set(k, swap(v));
    for (const [k, v] of parts) parts.set(k, swap(v));
    parts.set(name, text);
  }
  return { types, parts };
}

/**
 * The text of contract-types.d.ts for the client package.
 * @param {string} root the repository root
 * @returns {string}
 */
export function contractTypes(root) {
  const first = programWith(
    root,
    `import type { ExportLineName, ReadName } from './contract-types.ts';\nexport type Names = ReadName;\nexport type Lines = ExportLineName;\n`,
    undefined,
  );
  const names = resolvedAliases(first, root);
  const reads = literals(String(names.get('Names')));
  const lines = literals(String(names.get('Lines')));
  const probe = [
    `import type { ExportLine, JsonBody, QueryInput } from './contract-types.ts';`,
    ...reads.flatMap((n) => [`export type Q_${n} = QueryInput<'${n}'>;`, `export type J_${n} = JsonBody<'${n}'>;`]),
    ...lines.map((l) => `export type L_${l} = ExportLine<'${l}'>;`),
  ].join('\n');
  const resolved = resolvedAliases(programWith(root, probe, first), root);
  for (const [alias, text] of resolved) {
    if (/import\(|\bz\.|\$Zod|\bcore\./.test(text)) {
      throw new Error(`${alias} does not resolve to plain types: ${text.slice(0, 300)}`);
    }
  }
  const { types, parts } = hoist(resolved);
  const member = (/** @type {string} */ k, /** @type {string} */ prefix) => `  ${k}: ${types.get(`${prefix}_${k}`)};`;
  return [
    `// Generated by scripts/client-types.mjs from the service's route schemas: the types of every read.`,
    ...[...parts].map(([name, text]) => `export type ${name} = ${text};`),
    `/** What each read's query accepts, by operationId. */`,
    `export interface ReadQueries {\n${reads.map((n) => member(n, 'Q')).join('\n')}\n}`,
    `/** Each read's JSON body (a feed's body is its text), by operationId. */`,
    `export interface ReadBodies {\n${reads.map((n) => member(n, 'J')).join('\n')}\n}`,
    `/** The lines of an NDJSON export. */`,
    `export interface ExportLines {\n${lines.map((l) => member(l, 'L')).join('\n')}\n}`,
    `export type ReadName = keyof ReadQueries;`,
    `export type QueryInput<N extends ReadName> = ReadQueries[N];`,
    `export type JsonBody<N extends ReadName> = ReadBodies[N];`,
    `export type ExportLineName = keyof ExportLines;`,
    `export type ExportLine<K extends ExportLineName> = ExportLines[K];`,
    '',
  ].join('\n');
}
