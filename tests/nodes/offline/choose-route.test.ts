import { describe, expect, it } from "vitest";
import { teacherRoute } from "../../../nodes/offline/choose-route.js";
import type { RouteProfile } from "../../../nodes/strategies.js";
import type { Operator, Route } from "../../../nodes/types.js";

const profile = (
  operator: Operator,
  entities: string[],
  hasSchema = true,
  failedRoutes: Route[] = [],
  modality: "text" | "table" | "both" = "table",
): RouteProfile => ({
  subQuery: "q",
  plan: {
    subQuery: "q",
    requiredModalities: modality,
    expectedOperator: operator,
    needGlobalTableView: false,
    entityMentions: entities,
    uncertainty: 0,
  },
  hasSchema,
  schemaFeature: "none",
  failedRoutes,
  historyFeature: "none",
});

describe("offline chooseRoute (the §5.2 teacher rules)", () => {
  it("follows the ordered rules", () => {
    expect(teacherRoute(profile("lookup", [], true, [], "text"))).toBe("TEXT");
    expect(teacherRoute(profile("lookup", [], false))).toBe("TEXT");
    expect(teacherRoute(profile("count", []))).toBe("SQL");
    expect(teacherRoute(profile("count", ["China"]))).toBe("HYBRID");
    expect(teacherRoute(profile("lookup", ["China"]))).toBe("RETRIEVE");
    expect(teacherRoute(profile("lookup", []))).toBe("SQL");
  });

  it("never picks a failed route", () => {
    expect(teacherRoute(profile("count", ["China"], true, ["HYBRID"]))).toBe("RETRIEVE");
    expect(teacherRoute(profile("count", [], true, ["SQL"]))).toBe("TEXT");
    expect(teacherRoute(profile("count", [], true, ["SQL", "TEXT"]))).toBe("RETRIEVE");
    expect(teacherRoute(profile("lookup", [], true, ["TEXT", "RETRIEVE", "SQL", "HYBRID"]))).toBe("TEXT");
  });
});
