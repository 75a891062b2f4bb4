/**
 * The few Python number semantics the official scorers depend on, reproduced exactly so that a
 * score computed here equals the one the Python evaluator prints:
 * - which strings `int()` / `float()` accept (Python 2 syntax: no `_` separators, as the WTQ
 *   evaluator was written for Python 2),
 * - `round(x, n)` and `'%.nf' % x`, which round exact binary ties half-to-even (JavaScript's
 *   `toFixed` rounds them away from zero),
 * - `str(float)`, which the TAT-QA normaliser uses to canonicalise numbers (`100.0`, `1e-05`).
 */

const PY_INT = /^\s*[+-]?\d+\s*$/;
const PY_FLOAT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const PY_FLOAT_SPECIAL = /^\s*[+-]?(?:inf|infinity|nan)\s*$/i;

/** Python `int(text)`: the integer, or undefined where Python raises ValueError. */
export function pyInt(text: string): number | undefined {
  return PY_INT.test(text) ? Number(text.trim()) : undefined;
}

/** Python `float(text)`: the value (NaN/Infinity included), or undefined where Python raises. */
export function pyFloat(text: string): number | undefined {
  if (PY_FLOAT.test(text)) return Number(text.trim());
  if (PY_FLOAT_SPECIAL.test(text)) {
    const t = text.trim().toLowerCase();
    if (t.includes("nan")) return NaN;
    return t.startsWith("-") ? -Infinity : Infinity;
  }
  return undefined;
}

/**
 * The decimal string of `x` rounded to `digits` places, ties (exactly representable halves) to
 * even — what Python's `'%.{digits}f' % x` prints. Negative zero prints as `0` (Python integer
 * arithmetic never produces it, and the scorers mostly round integers).
 */
export function pyFormatFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return x > 0 ? "inf" : x < 0 ? "-inf" : "nan";
  if (Object.is(x, -0)) x = 0;
  // toFixed is exact for up to 100 digits: a tie at `digits` places shows as "5" followed by zeros.
  const exact = x.toFixed(Math.min(100, digits + 30));
  const cut = exact.indexOf(".") + 1 + digits;
  const tail = exact.slice(cut);
  if (/^50*$/.test(tail)) {
    const head = exact.slice(0, cut).replace(/\.$/, "");
    const lastDigit = Number(head[head.length - 1]);
    if (lastDigit % 2 === 0) return head; // even: drop the half; odd: toFixed rounds away to even
  }
  return x.toFixed(digits);
}

/** Python `round(x, digits)` for a float. */
export function pyRound(x: number, digits: number): number {
  return Number(pyFormatFixed(x, digits));
}

/** Python `str(x)` for a number that Python holds as a float (`100.0`, `0.125`, `1e-05`, `1.2e+16`). */
export function pyFloatStr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expPart] = x.toExponential().split("e") as [string, string];
  const exp = Number(expPart);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, "0");
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${e}`;
  }
  let text: string;
  if (exp >= 0) {
    const intLen = exp + 1;
    text =
      digits.length <= intLen
        ? digits.padEnd(intLen, "0") + ".0"
        : `${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
  } else {
    text = `0.${"0".repeat(-exp - 1)}${digits}`;
  }
  return sign + text;
}

/** Python `str(n)` where n is an int when `isInt`, else a float. */
export function pyNumberStr(n: number, isInt: boolean): string {
  if (isInt) return Object.is(n, -0) ? "0" : String(Math.round(n));
  return pyFloatStr(n);
}
