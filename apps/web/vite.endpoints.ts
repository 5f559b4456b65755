/**
 * Endpoint descriptors for the web build. The contract's endpoint tables (`lockEndpoints`, ...) hold
 * each route's zod schemas, built when their module runs: ~1 s of a throttled phone's first load for
 * the frame's tables, and zod itself (~370 KB raw) on every page. The console reads only plain fields
 * of an endpoint (DESCRIBED_FIELDS) and, of its query schema, whether it takes a `cursor`
 * (components/keysetPaging.ts). So in the build, vite.contract.ts imports every endpoint table the web
 * names, and every plain-data export (a header name, a list of kinds) of a contract module that builds
 * zod schemas, from a module generated here from the contract itself (loaded in Node by Vite's module
 * runner): each endpoint a plain object of those fields, with `query: { shape: { cursor: true } }` for a
 * keyset list, and nothing of zod. Functions and schemas still come from the contract's own modules
 * (and bring zod with them). The dev server and the unit tests keep the real tables, which carry the
 * same fields. The build fails (throws) when an endpoint has a field neither described nor a schema and
 * when web code reads a schema field off an endpoint (readsSchemaField).
 */
import { isDeepStrictEqual } from 'node:util';

/** Import id prefix of the endpoint descriptors of a contract module, followed by its path (vite.contract.ts resolves it). */
export const DESCRIPTORS = 'virtual:iot-endpoints:';

/** An endpoint's fields the console reads (api/client.ts, api/stepUp.ts, live/, the system log's labels), kept in its descriptor. */
export const DESCRIBED_FIELDS = ['method', 'path', 'access', 'kind', 'scope', 'idempotent', 'duringEnrolment', 'stepUp', 'stream', 'action'] as const;
/** An endpoint's zod schemas, left out of its descriptor (but for the `cursor` marker of the query). */
const SCHEMA_FIELDS: readonly string[] = ['query', 'body', 'upload', 'response'];

type Fields = Record<string, unknown>;

function isEndpoint(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'kind' in value && 'response' in value;
}

/** True for a plain object every value of which is an endpoint or such a table (nested: credentialEndpoints.user.log). */
function isTable(value: unknown): value is Fields {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype || isEndpoint(value)) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every((entry) => isEndpoint(entry) || isTable(entry));
}

/** The descriptor of `endpoint` (named `where` in errors): its described fields and the cursor marker. Throws on an unknown field or a value JSON cannot carry. */
export function describeEndpoint(endpoint: Fields, where: string): Fields {
  const unknown = Object.keys(endpoint).filter((key) => !(DESCRIBED_FIELDS as readonly string[]).includes(key) && !SCHEMA_FIELDS.includes(key));
  if (unknown.length > 0) throw new Error(`${where}: endpoint field ${unknown.join(', ')} is neither described nor a schema: add it to DESCRIBED_FIELDS (apps/web/vite.endpoints.ts) if the console reads it`);
  const descriptor: Fields = Object.fromEntries(DESCRIBED_FIELDS.filter((key) => endpoint[key] !== undefined).map((key) => [key, endpoint[key]]));
  const shape = (endpoint.query as { shape?: object } | undefined)?.shape;
  if (shape && 'cursor' in shape) descriptor.query = { shape: { cursor: true } };
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(descriptor)), descriptor)) throw new Error(`${where}: endpoint fields are not plain data`);
  return descriptor;
}

/** An export the web build serves without zod: an endpoint table or plain data (JSON), with the contract module declaring it. */
export interface DescribedExport {
  name: string;
  file: string;
  value: unknown;
}

/** True for data JSON carries as is (a header name, a list of kinds), never a schema or a function. */
export function isPlainData(value: unknown): boolean {
  if (typeof value === 'function' || value === undefined) return false;
  try {
    return isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value);
  } catch {
    return false;
  }
}

/** The exports among `exports` (name → value) of `file` the web build serves without zod: endpoint tables and plain data. */
export function describedExports(exports: Readonly<Record<string, unknown>>, file: string): DescribedExport[] {
  return Object.entries(exports).filter(([, value]) => isTable(value) || isPlainData(value)).map(([name, value]) => ({ name, file, value }));
}

/** Calls `visit` with every endpoint of `table`, its key path and its depth (1: a key of the table). */
function walk(table: Fields, where: string, depth: number, visit: (endpoint: Fields, where: string, depth: number) => void): void {
  for (const [key, value] of Object.entries(table)) {
    if (isEndpoint(value)) visit(value, `${where}.${key}`, depth);
    else walk(value as Fields, `${where}.${key}`, depth + 1, visit);
  }
}

/**
 * The descriptor modules of `described`, by file: plain data as JSON, endpoint tables as descriptors.
 * Each endpoint is one object, exported by its home module (the file of the table naming it by the
 * shortest key path: notificationEndpoints.inbox is notificationInboxEndpoints) and imported by the
 * others, so an endpoint met twice is the same object, as in the contract. Throws on two modules
 * importing each other.
 */
export function descriptorModules(described: readonly DescribedExport[]): Map<string, string> {
  const tables = described.filter(({ value }) => isTable(value)) as { name: string; file: string; value: Fields }[];
  const homes = new Map<Fields, { file: string; where: string; depth: number }>();
  for (const { name, file, value } of tables) {
    walk(value, name, 1, (endpoint, where, depth) => {
      if ((homes.get(endpoint)?.depth ?? Number.POSITIVE_INFINITY) > depth) homes.set(endpoint, { file, where, depth });
    });
  }
  const ids = new Map([...homes.keys()].map((endpoint, index) => [endpoint, `endpoint${index}`]));
  type Module = { lines: string[]; imports: Map<string, Set<string>> };
  const modules = new Map<string, Module>();
  const moduleOf = (file: string): Module => {
    const module: Module = modules.get(file) ?? { lines: [], imports: new Map() };
    modules.set(file, module);
    return module;
  };
  for (const [endpoint, { file, where }] of homes) moduleOf(file).lines.push(`export const ${ids.get(endpoint)} = ${JSON.stringify(describeEndpoint(endpoint, where))};`);
  for (const { name, file, value } of described) {
    const module = moduleOf(file);
    const use = (endpoint: Fields) => {
      const id = ids.get(endpoint) as string;
      const home = homes.get(endpoint)?.file as string;
      if (home !== file) module.imports.set(home, (module.imports.get(home) ?? new Set()).add(id));
      return id;
    };
    const render = (table: Fields): string => `{ ${Object.entries(table).map(([key, entry]) => `${JSON.stringify(key)}: ${isEndpoint(entry) ? use(entry) : render(entry as Fields)}`).join(', ')} }`;
    module.lines.push(`export const ${name} = ${isTable(value) ? render(value) : JSON.stringify(value)};`);
  }
  return new Map([...modules].map(([file, { lines, imports }]) => {
    for (const home of imports.keys()) if (modules.get(home)?.imports.has(file)) throw new Error(`the endpoint descriptors of ${file} and ${home} would import each other`);
    const importLines = [...imports].map(([home, names]) => `import { ${[...names].join(', ')} } from ${JSON.stringify(`${DESCRIPTORS}${home}`)};`);
    return [file, [`// Endpoint descriptors and plain data of ${file}, generated by apps/web/vite.endpoints.ts.`, ...importLines, ...lines, ''].join('\n')];
  }));
}

/** Reads off an endpoint variable (`endpoint.body`, not `endpoint.query?.shape`) and off a table (`lockEndpoints.add.body`). */
const VARIABLE_READ = /\b\w*[eE]ndpoint\??\.(?:body|response|upload|query(?!\??\.shape\b))\b/;
const TABLE_READ = /\b(\w+Endpoints)((?:\??\.\w+)+)/g;

/**
 * The first read of a schema field (body, response, upload; query but for its shape) off an endpoint
 * in compiled web code, if any: descriptors do not carry them. A table's chain is followed through
 * `tables` (an endpoint may be named `upload`: firmwareEndpoints.upload).
 */
export function readsSchemaField(code: string, tables: ReadonlyMap<string, unknown>): string | undefined {
  const variable = VARIABLE_READ.exec(code)?.[0];
  if (variable) return variable;
  for (const [read, name, chain] of code.matchAll(TABLE_READ)) {
    let value: unknown = tables.get(name as string);
    for (const key of (chain as string).split('.').map((part) => part.replace('?', '')).filter(Boolean)) {
      if (isEndpoint(value)) {
        if (SCHEMA_FIELDS.includes(key) && !(key === 'query' && read.includes('query.shape'))) return read;
        break;
      }
      value = isTable(value) ? value[key] : undefined;
    }
  }
  return undefined;
}
