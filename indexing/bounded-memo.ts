/** The bounded memo lives in the text layer (text/bounded-memo.ts), which memoises its normalisers with it; this path stays for its importers here and above. */
export { boundedMemo, type BoundedMemo } from "../text/bounded-memo.js";
