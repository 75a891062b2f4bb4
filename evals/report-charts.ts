/**
 * Hand-written SVG charts for the HTML run report — horizontal grouped bars, a histogram and a
 * three-column route flow — rendered at build time as inline SVG, so the page needs no chart
 * library and fetches nothing. Every label passes through escapeHtml.
 */
import { escapeHtml as esc } from "./report-escape.js";

/** Colours of run 1 and run 2. */
export const RUN_COLOURS = ["#2563eb", "#ea580c"];
const ROUTE_COLOURS: Record<string, string> = {
  TEXT: "#0891b2",
  RETRIEVE: "#7c3aed",
  SQL: "#16a34a",
  HYBRID: "#d97706",
  "none accepted": "#dc2626",
  "no attempt": "#6b7280",
};
const FALLBACK_COLOURS = ["#475569", "#be185d", "#0d9488", "#a16207", "#4338ca"];

export function routeColour(name: string, i = 0): string {
  return ROUTE_COLOURS[name] ?? FALLBACK_COLOURS[i % FALLBACK_COLOURS.length]!;
}

const FONT = `font-family="system-ui, sans-serif" font-size="12"`;
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export interface BarSeries {
  label: string;
  /** One value per category; undefined draws no bar (the run has no question there). */
  values: Array<number | undefined>;
  /** Question count per category, shown beside the value. */
  counts?: Array<number | undefined>;
}

/** Horizontal grouped bars: one row per category, one bar per series. */
export function barChart(options: {
  title: string;
  categories: string[];
  series: BarSeries[];
  max?: number;
  unit?: string;
}): string {
  const { categories, series } = options;
  const unit = options.unit ?? "";
  const labelW = 170;
  const barW = 300;
  const width = labelW + barW + 110;
  const barH = 14;
  const rowH = series.length * barH + 10;
  const top = 26;
  const height = top + categories.length * rowH + (series.length > 1 ? 22 : 6);
  const max =
    options.max ?? Math.max(1, ...series.flatMap((s) => s.values.filter((v): v is number => v !== undefined)));
  const parts: string[] = [`<text x="0" y="14" font-weight="600">${esc(options.title)}</text>`];
  categories.forEach((cat, c) => {
    const y0 = top + c * rowH;
    parts.push(
      `<text x="${labelW - 8}" y="${y0 + rowH / 2 + 2}" text-anchor="end"><title>${esc(cat)}</title>${esc(clip(cat, 26))}</text>`,
    );
    series.forEach((s, i) => {
      const v = s.values[c];
      if (v === undefined) return;
      const y = y0 + i * barH + 3;
      const w = Math.max(1, (v / max) * barW);
      const n = s.counts?.[c];
      parts.push(
        `<rect class="bar" x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="${barH - 3}" fill="${RUN_COLOURS[i % 2]}"><title>${esc(`${s.label}: ${fmt(v)}${unit}${n !== undefined ? ` (n=${n})` : ""}`)}</title></rect>`,
        `<text x="${labelW + w + 4}" y="${y + barH - 5}" fill="#334155">${esc(`${fmt(v)}${unit}${n !== undefined ? `  n=${n}` : ""}`)}</text>`,
      );
    });
  });
  if (series.length > 1)
    parts.push(
      legend(
        series.map((s) => s.label),
        height - 8,
      ),
    );
  return svg(width, height, parts);
}

function legend(labels: string[], y: number): string {
  return labels
    .map(
      (l, i) =>
        `<rect x="${i * 200}" y="${y - 9}" width="10" height="10" fill="${RUN_COLOURS[i % 2]}"/><text x="${i * 200 + 14}" y="${y}">${esc(clip(l, 28))}</text>`,
    )
    .join("");
}

function svg(width: number, height: number, parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} role="img">${parts.join("")}</svg>`;
}

/** Equal-width bins from 0 (or the minimum) to the maximum over every series. */
export function bins(values: number[][], count: number): number[] {
  const all = values.flat();
  if (all.length === 0) return [0, 1];
  const lo = Math.min(0, ...all);
  const hi = Math.max(...all);
  const step = hi > lo ? (hi - lo) / count : 1;
  return Array.from({ length: count + 1 }, (_, i) => lo + i * step);
}

/** Vertical histogram; two series share each bin side by side. Markers draw dashed vertical lines (p50, p90). */
export function histogram(options: {
  title: string;
  series: Array<{ label: string; values: number[] }>;
  unit: string;
  binCount?: number;
  markers?: Array<{ label: string; value: number; series: number }>;
}): string {
  const { series } = options;
  const edges = bins(
    series.map((s) => s.values),
    options.binCount ?? 20,
  );
  const nb = edges.length - 1;
  const counts = series.map((s) => {
    const c = new Array<number>(nb).fill(0);
    for (const v of s.values)
      c[Math.min(nb - 1, Math.max(0, Math.floor(((v - edges[0]!) / (edges[nb]! - edges[0]! || 1)) * nb)))]!++;
    return c;
  });
  const left = 40;
  const plotW = 480;
  const plotH = 150;
  const top = options.markers?.length ? 40 : 26;
  const width = left + plotW + 20;
  const height = top + plotH + 40 + (series.length > 1 ? 16 : 0);
  const maxCount = Math.max(1, ...counts.flat());
  const bw = plotW / nb;
  const parts: string[] = [`<text x="0" y="14" font-weight="600">${esc(options.title)}</text>`];
  parts.push(`<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#94a3b8"/>`);
  parts.push(
    `<text x="${left - 4}" y="${top + 8}" text-anchor="end">${maxCount}</text><text x="${left - 4}" y="${top + plotH}" text-anchor="end">0</text>`,
  );
  counts.forEach((c, s) => {
    c.forEach((n, b) => {
      if (n === 0) return;
      const h = (n / maxCount) * plotH;
      const w = (bw - 2) / series.length;
      const x = left + b * bw + 1 + s * w;
      parts.push(
        `<rect class="bar" x="${x.toFixed(1)}" y="${(top + plotH - h).toFixed(1)}" width="${Math.max(1, w).toFixed(1)}" height="${h.toFixed(1)}" fill="${RUN_COLOURS[s % 2]}"><title>${esc(`${series[s]!.label}: ${n} question(s) in ${fmt(edges[b]!)}–${fmt(edges[b + 1]!)} ${options.unit}`)}</title></rect>`,
      );
    });
  });
  for (let t = 0; t <= 4; t++) {
    const v = edges[0]! + ((edges[nb]! - edges[0]!) * t) / 4;
    parts.push(
      `<text x="${left + (plotW * t) / 4}" y="${top + plotH + 14}" text-anchor="middle">${esc(fmt(v))}</text>`,
    );
  }
  parts.push(
    `<text x="${left + plotW / 2}" y="${top + plotH + 30}" text-anchor="middle" fill="#475569">${esc(options.unit)}</text>`,
  );
  // Marker lines carry their value as a tooltip; their labels go in one line under the title, per series.
  for (const m of options.markers ?? []) {
    const x = left + ((m.value - edges[0]!) / (edges[nb]! - edges[0]! || 1)) * plotW;
    parts.push(
      `<line x1="${x.toFixed(1)}" y1="${top}" x2="${x.toFixed(1)}" y2="${top + plotH}" stroke="${RUN_COLOURS[m.series % 2]}" stroke-dasharray="4 3"><title>${esc(m.label)}</title></line>`,
    );
  }
  const bySeries = series
    .map((_, i) =>
      (options.markers ?? [])
        .filter((m) => m.series === i)
        .map((m) => m.label)
        .join(" · "),
    )
    .map((t, i) => [t, i] as const)
    .filter(([t]) => t !== "");
  bySeries.forEach(([text, i], k) =>
    parts.push(
      `<text x="${left + k * 240}" y="${top - 6}" fill="${RUN_COLOURS[i % 2]}">${esc(`${series.length > 1 ? `${clip(series[i]!.label, 14)}: ` : ""}${text}`)}</text>`,
    ),
  );
  if (series.length > 1)
    parts.push(
      legend(
        series.map((s) => s.label),
        height - 4,
      ),
    );
  return svg(width, height, parts);
}

/**
 * Route flow: three columns of nodes (first requested → first effective → final route) whose
 * heights are question counts, joined by bands as wide as the questions that took that path.
 */
export function routeFlow(options: {
  title: string;
  paths: Array<[string, string, string]>;
  columns: [string, string, string];
}): string {
  const { paths } = options;
  const width = 600;
  const plotH = 220;
  const top = 44;
  const nodeW = 14;
  const xs = [110, 300, 490];
  const gap = 10;
  const height = top + plotH + 20;
  const parts: string[] = [`<text x="0" y="14" font-weight="600">${esc(options.title)}</text>`];
  options.columns.forEach((c, i) =>
    parts.push(`<text x="${xs[i]! + nodeW / 2}" y="34" text-anchor="middle" fill="#475569">${esc(c)}</text>`),
  );
  if (paths.length === 0) return svg(width, height, [...parts, `<text x="10" y="${top + 20}">no questions</text>`]);
  const scale = (plotH - gap * 6) / paths.length;
  // Node positions per column.
  const nodes = [0, 1, 2].map((col) => {
    const counts = new Map<string, number>();
    for (const p of paths) counts.set(p[col]!, (counts.get(p[col]!) ?? 0) + 1);
    const order = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    let y = top;
    const pos = new Map<string, { y: number; h: number; outY: number; inY: number }>();
    for (const [name, n] of order) {
      const h = n * scale;
      pos.set(name, { y, h, outY: y, inY: y });
      y += h + gap;
    }
    return { order, pos };
  });
  const colourOf = new Map<string, string>();
  nodes
    .flatMap((n) => n.order.map(([name]) => name))
    .forEach((name, i) => colourOf.has(name) || colourOf.set(name, routeColour(name, i)));
  for (const col of [0, 1]) {
    const links = new Map<string, number>();
    for (const p of paths)
      links.set(`${p[col]}\u0000${p[col + 1]}`, (links.get(`${p[col]}\u0000${p[col + 1]}`) ?? 0) + 1);
    const sorted = [...links.entries()].sort((a, b) => b[1] - a[1]);
    for (const [key, n] of sorted) {
      const [a, b] = key.split("\u0000") as [string, string];
      const from = nodes[col]!.pos.get(a)!;
      const to = nodes[col + 1]!.pos.get(b)!;
      const w = n * scale;
      const y1 = from.outY + w / 2;
      const y2 = to.inY + w / 2;
      from.outY += w;
      to.inY += w;
      const x1 = xs[col]! + nodeW;
      const x2 = xs[col + 1]!;
      const mx = (x1 + x2) / 2;
      parts.push(
        `<path class="flow" d="M${x1},${y1.toFixed(1)} C${mx},${y1.toFixed(1)} ${mx},${y2.toFixed(1)} ${x2},${y2.toFixed(1)}" stroke="${colourOf.get(a)}" stroke-opacity="0.35" stroke-width="${Math.max(1, w).toFixed(1)}" fill="none"><title>${esc(`${a} → ${b}: ${n}`)}</title></path>`,
      );
    }
  }
  nodes.forEach(({ order, pos }, col) => {
    for (const [name, n] of order) {
      const p = pos.get(name)!;
      const x = xs[col]!;
      parts.push(
        `<rect class="node" x="${x}" y="${p.y.toFixed(1)}" width="${nodeW}" height="${Math.max(1, p.h).toFixed(1)}" fill="${colourOf.get(name)}"><title>${esc(`${name}: ${n}`)}</title></rect>`,
      );
      const label = `${clip(name, 16)} ${n}`;
      parts.push(
        col === 0
          ? `<text x="${x - 4}" y="${(p.y + p.h / 2 + 4).toFixed(1)}" text-anchor="end">${esc(label)}</text>`
          : `<text x="${x + nodeW + 4}" y="${(p.y + p.h / 2 + 4).toFixed(1)}">${esc(label)}</text>`,
      );
    }
  });
  return svg(width, height, parts);
}
