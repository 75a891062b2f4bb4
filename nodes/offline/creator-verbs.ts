/**
 * "Who designed the chapel …", "Who translated the novel …": a "who" question whose verb makes or holds
 * the row's entity asks for its maker or holder. The row's person column answers it only when its header
 * names that maker ("Architect", "Designer"; "Translator"); a row of books whose person column is the
 * Author, or a row of chapels whose "Church name" reads like a name, does not (askedCell's person cell,
 * reader.ts). The translator, the architect is then told in the row's passages.
 */
import { stem } from "../../text/stem.js";

/** Verbs (stemmed) that make or hold a thing, and the header words that name who does it. */
const MAKERS: ReadonlyMap<string, readonly string[]> = new Map([
  ["design", ["designer", "architect", "design"]],
  ["built", ["builder", "architect", "built"]],
  ["build", ["builder", "architect", "built"]],
  ["translat", ["translator", "translation"]],
  ["wrote", ["writer", "author", "written", "lyricist", "songwriter"]],
  ["write", ["writer", "author", "written", "lyricist", "songwriter"]],
  ["found", ["founder", "founded"]],
  ["establish", ["founder", "established"]],
  ["own", ["owner", "owned", "proprietor"]],
  ["creat", ["creator", "created"]],
  ["produc", ["producer", "produced"]],
  ["direct", ["director", "directed"]],
  ["compos", ["composer", "music"]],
  ["publish", ["publisher", "published"]],
  ["develop", ["developer", "developed"]],
  ["invent", ["inventor", "invented"]],
]);

/** The maker words of a "who VERB …" question's verb, or undefined when it opens otherwise. */
function makerWords(question: string): readonly string[] | undefined {
  const verb = /^\s*who\s+([a-z]+)\b/i.exec(question)?.[1]?.toLowerCase();
  return verb ? MAKERS.get(stem(verb)) : undefined;
}

/** Does a "who made …" question ask for a maker this header does not name? */
export function makerNotNamed(question: string, header: string): boolean {
  const makers = makerWords(question);
  if (!makers) return false;
  const words = header.toLowerCase().split(/[^a-z]+/);
  return !words.some((w) => makers.some((m) => w === m || stem(w) === stem(m)));
}
