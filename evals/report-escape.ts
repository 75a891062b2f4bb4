/**
 * Escaping for the HTML run report: every question, answer, SQL string and evidence value is
 * untrusted text and goes through one of these before it reaches the page.
 */

/** Text or attribute value → HTML with `& < > " '` escaped. */
export function escapeHtml(text: unknown): string {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the JS line separators
 * are written as \u escapes, so no value can close the script element or open a comment.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
