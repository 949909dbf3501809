/**
 * A strict little XML reader for tests: enough of XML 1.0 to prove a JUnit
 * report is well-formed (balanced tags, quoted attributes, only the five
 * named entities and numeric references, no stray `<` or `&`) and to read it.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  if (/[<]/.test(raw)) throw new Error(`raw "<" in text or attribute near offset ${at}`);
  return raw.replace(/&([^;]*);|&/g, (match, entity: string | undefined) => {
    if (entity === undefined) throw new Error(`bare "&" near offset ${at}`);
    if (entity in ENTITIES) return ENTITIES[entity];
    const numeric = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(entity);
    if (!numeric) throw new Error(`unknown entity &${entity}; near offset ${at}`);
    return String.fromCodePoint(numeric[1].startsWith("x") ? parseInt(numeric[1].slice(1), 16) : Number(numeric[1]));
  });
}

export function parseXml(source: string): XmlElement {
  let at = 0;
  if (source.startsWith("<?xml")) at = source.indexOf("?>") + 2;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  while (at < source.length) {
    const next = source.indexOf("<", at);
    const text = source.slice(at, next === -1 ? source.length : next);
    if (stack.length > 0) stack[stack.length - 1].text += decode(text, at);
    else if (text.trim() !== "") throw new Error(`text outside the root element near offset ${at}`);
    if (next === -1) break;
    at = next;

    if (source.startsWith("</", at)) {
      const close = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(source.slice(at));
      const open = stack.pop();
      if (!close || !open || close[1] !== open.name) throw new Error(`mismatched closing tag near offset ${at}`);
      at += close[0].length;
      continue;
    }

    at++;
    const name = NAME.exec(source.slice(at))?.[0];
    if (!name) throw new Error(`bad tag near offset ${at}`);
    at += name.length;
    const element: XmlElement = { name, attributes: {}, children: [], text: "" };
    for (;;) {
      const attribute = /^\s+([A-Za-z_][\w.:-]*)="([^"]*)"/.exec(source.slice(at));
      if (!attribute) break;
      if (attribute[1] in element.attributes) throw new Error(`duplicate attribute ${attribute[1]} near offset ${at}`);
      element.attributes[attribute[1]] = decode(attribute[2], at);
      at += attribute[0].length;
    }
    const end = /^\s*(\/?)>/.exec(source.slice(at));
    if (!end) throw new Error(`malformed tag <${name}> near offset ${at}`);
    at += end[0].length;

    if (stack.length > 0) stack[stack.length - 1].children.push(element);
    else if (root) throw new Error("more than one root element");
    else root = element;
    if (!end[1]) stack.push(element);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1].name}>`);
  if (!root) throw new Error("no root element");
  return root;
}

/** Every descendant element with this name, in document order. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...findAll(child, name)]);
}
