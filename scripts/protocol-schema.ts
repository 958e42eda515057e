// Generates sdk/protocol.schema.json, the language-neutral description of the extension frames (and of
// the manifest's `permissions`, powers included), from
// the TypeScript types in src/protocol.ts (the one definition of the protocol). SDKs in other
// languages validate their frames against it; test/ext/protocol-schema.test.ts fails when the file
// is stale. Usage: bun scripts/protocol-schema.ts [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";

const repo = resolve(import.meta.dir, "..");
const protocolFile = resolve(repo, "src/protocol.ts");
export const schemaFile = resolve(repo, "sdk/protocol.schema.json");

type Schema = { [key: string]: unknown };

/** The schema as JSON text (two-space indent, trailing newline), exactly as committed. */
export function protocolSchemaText(): string {
  const program = ts.createProgram([protocolFile], { strict: true, noEmit: true, allowImportingTsExtensions: true, target: ts.ScriptTarget.ESNext });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(protocolFile);
  if (!source) throw new Error(`cannot read ${protocolFile}`);
  const aliases = new Map<string, ts.Type>();
  source.forEachChild((node) => {
    if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, checker.getTypeAtLocation(node.name));
  });
  const alias = (name: string): ts.Type => {
    const t = aliases.get(name);
    if (!t) throw new Error(`src/protocol.ts has no type ${name}`);
    return t;
  };
  const toSchema = (type: ts.Type): Schema => {
    // Free-form JSON (src/json.ts) stays free-form: its recursive alias would otherwise unfold forever.
    if (type.aliasSymbol?.name === "Json") return {};
    if (type.aliasSymbol?.name === "JsonObject") return { type: "object" };
    if (type.isUnion()) {
      // `Json | undefined` is flattened into one union, losing the alias; only Json admits null.
      if (type.aliasSymbol?.name === "Json" || type.types.some((t) => t.flags & ts.TypeFlags.Null)) return {};
      const members = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
      if (members.length === 1) return toSchema(members[0]!);
      if (members.every((t) => t.isStringLiteral())) return { enum: members.map((t) => (t as ts.StringLiteralType).value) };
      if (members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
      // `boolean | {…}` arrives as `true | false | {…}`: the two literals are one boolean.
      const booleans = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
      const others = members.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
      return { anyOf: [...(booleans.length ? [{ type: "boolean" }] : []), ...others.map(toSchema)] };
    }
    if (type.isStringLiteral()) return { const: type.value };
    if (type.flags & ts.TypeFlags.String) return { type: "string" };
    if (type.flags & ts.TypeFlags.Number) return { type: "number" };
    if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
    if (checker.isArrayType(type)) return { type: "array", items: toSchema(checker.getTypeArguments(type as ts.TypeReference)[0]!) };
    if (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return objectSchema(type);
    throw new Error(`no JSON Schema for the type ${checker.typeToString(type)}`);
  };

  const objectSchema = (type: ts.Type): Schema => {
    const properties: Schema = {};
    const required: string[] = [];
    for (const prop of checker.getPropertiesOfType(type)) {
      const declaration = prop.valueDeclaration ?? prop.declarations?.[0];
      if (!declaration) continue;
      const propType = checker.getTypeOfSymbolAtLocation(prop, declaration);
      properties[prop.name] = toSchema(propType);
      const mayBeAbsent = prop.flags & ts.SymbolFlags.Optional || (propType.isUnion() && propType.types.some((t) => t.flags & ts.TypeFlags.Undefined));
      if (!mayBeAbsent) required.push(prop.name);
    }
    return { type: "object", properties, required, additionalProperties: false };
  };

  const frames = (name: string): Schema => {
    const union = alias(name);
    const members = union.isUnion() ? union.types : [union];
    return { oneOf: members.map(toSchema) };
  };

  const schema: Schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $comment: "Generated from src/protocol.ts by scripts/protocol-schema.ts; do not edit.",
    title: "zot extension protocol frames",
    $defs: { ExtensionFrame: frames("ExtensionWireFrame"), HostFrame: frames("HostFrame"), Permissions: toSchema(alias("PermissionsDeclaration")) },
  };
  return JSON.stringify(schema, null, 2) + "\n";
}

if (import.meta.main) {
  const text = protocolSchemaText();
  if (process.argv.includes("--check")) {
    if (readFileSync(schemaFile, "utf8") !== text) {
      console.error(`${schemaFile} is stale; run bun scripts/protocol-schema.ts`);
      process.exit(1);
    }
  } else {
    writeFileSync(schemaFile, text);
  }
}
