import { schemaFields } from "../schema/json-schema.ts";

/** A JSON Schema's top-level fields as a compact list: name, type, required. */
export function SchemaFields({ schema }: { schema: unknown }) {
  const fields = schemaFields(schema);
  if (fields.length === 0) return <p className="text-xs text-fg-muted">No input fields.</p>;
  return (
    <ul className="space-y-1 text-xs">
      {fields.map((field) => (
        <li key={field.name} className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-mono font-medium text-fg">
            {field.name}
            {field.required ? <span className="text-mark-required" title="required">*</span> : null}
          </span>
          <span className="font-mono text-accent-fg">{field.type}</span>
          {field.description ? <span className="text-fg-muted">{field.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}
