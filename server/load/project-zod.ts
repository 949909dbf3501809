/**
 * The zod copies a project brings (its own `node_modules`). zod 4 keeps
 * `.describe()` texts in a registry of the copy that made the schema, and
 * zod 4.0.x and zod 3.25's `zod/v4` have no `toJSONSchema` method on the
 * schema: only that copy's `z.toJSONSchema` sees the descriptions. A copy is
 * found by importing zod as the file that made the schema does, and
 * recognised by identity: its `ZodObject` (or whichever class made the
 * schema) is the schema's own constructor.
 */
type Converter = (schema: never, options: object) => unknown;

interface ZodModule {
  toJSONSchema: Converter;
  [exported: string]: unknown;
}

/** How the module loader imports `specifier` for `fromFile` (the same copy the file got); undefined when it cannot. */
export type ImportFrom = (specifier: string, fromFile: string) => Promise<unknown>;

/** The classic zod 4 entry points: zod 4's root, and zod 3.25's `zod/v4`. */
const ZOD_4_SPECIFIERS = ["zod", "zod/v4"];

function constructorOf(schema: unknown): { name: string } | undefined {
  const constr = (schema as { _zod?: { constr?: unknown } } | null)?._zod?.constr;
  return typeof constr === "function" ? constr : undefined;
}

function isCopyOf(module: unknown, schema: unknown): module is ZodModule {
  const constr = constructorOf(schema);
  if (!constr || typeof module !== "object" || module === null) return false;
  const candidate = module as Record<string, unknown>;
  return typeof candidate.toJSONSchema === "function" && candidate[constr.name] === constr;
}

/** A zod 4 schema whose copy has no `toJSONSchema` method (zod 4.0.x, zod 3.25's `zod/v4`). */
function lacksOwnConverter(schema: unknown): boolean {
  return constructorOf(schema) !== undefined && typeof (schema as { toJSONSchema?: unknown }).toJSONSchema !== "function";
}

export class ProjectZod {
  private readonly copies: ZodModule[] = [];

  constructor(private readonly importFrom: ImportFrom) {}

  /** Finds the copy `schema` was made with, importing zod the way `file` does (once per copy). */
  async locate(schema: unknown, file: string): Promise<void> {
    if (!lacksOwnConverter(schema) || this.converterFor(schema)) return;
    for (const specifier of ZOD_4_SPECIFIERS) {
      const module = await this.importFrom(specifier, file);
      if (isCopyOf(module, schema)) {
        this.copies.push(module);
        return;
      }
    }
  }

  /** The `toJSONSchema` of the copy that made `schema`, when `locate` found it. */
  converterFor(schema: unknown): Converter | undefined {
    return this.copies.find((copy) => isCopyOf(copy, schema))?.toJSONSchema;
  }
}
