import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../indexing/canonical-json.js";
import { fnv1a32, mixedHash32, routerFeatureHash32 } from "../../indexing/hash.js";

describe("the one string hash", () => {
  it("is FNV-1a 32-bit (published test vectors) with the pinned finaliser variants", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
    // Values the built indexes and the committed router models depend on (computed before the move).
    expect(mixedHash32("club")).toBe(1615489274);
    expect(routerFeatureHash32("q:club")).toBe(2613229762);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth (integer-like ones too), drops undefined members like JSON", () => {
    expect(canonicalJson({ b: 1, a: [{ z: null, y: "x", k: undefined }], c: { "9": 1, "10": 2 } })).toBe(
      '{"a":[{"y":"x","z":null}],"b":1,"c":{"10":2,"9":1}}',
    );
    expect(canonicalJson({ x: 1, y: [2, undefined] })).toBe(canonicalJson({ y: [2, undefined], x: 1 }));
    expect(canonicalJson([undefined])).toBe("[null]");
  });
});
