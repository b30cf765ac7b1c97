package io.pgbloat.report;

/**
 * The HTML report's style sheet, inline so that the page loads nothing. Fonts are the
 * system's generic families: no web font is fetched. Written without '&lt;' or '&amp;', so it
 * is valid as the text of an XHTML {@code <style>} element too.
 */
final class HtmlStyle {
  private HtmlStyle() {}

  static final String CSS = """
      body { font-family: sans-serif; font-size: 14px; color: #222; margin: 24px; max-width: 1160px; }
      h1 { font-size: 22px; margin: 0 0 12px; }
      h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ccc; padding-bottom: 3px; }
      dl.run { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; margin: 0; }
      dl.run dt { color: #555; }
      dl.run dd { margin: 0; word-break: break-all; }
      .bad, .findings h2 { color: #a8201a; }
      .findings, .warnings { margin-top: 12px; }
      .findings li, .warnings li { font-family: monospace; word-break: break-all; }
      table.figures { border-collapse: collapse; font-size: 13px; }
      table.figures th { text-align: left; background: #eef1f5; padding: 3px 8px; border-bottom: 1px solid #bbb; }
      table.figures td { padding: 2px 8px; border-bottom: 1px solid #eee; vertical-align: top; }
      table.figures td.number { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
      table.figures td.name { max-width: 360px; word-break: break-all; }
      table.figures tr.total td { font-weight: bold; border-top: 1px solid #888; }
      svg.chart { display: block; font-family: sans-serif; }
      svg .label { font-size: 12px; fill: #222; }
      svg .value, svg .tick { font-size: 11px; fill: #444; }
      svg .axis { stroke: #444; stroke-width: 1; }
      svg .grid { stroke: #ddd; stroke-width: 1; }
      svg .wasted { fill: #7b5ea7; }
      svg .dead { fill: #c44e3b; }
      svg .free { fill: #e8b04a; }
      svg .interval { stroke: #111; stroke-width: 1.5; fill: none; }
      svg g.row:hover rect { opacity: 0.8; }
      .histograms { display: flex; flex-wrap: wrap; gap: 8px 24px; }
      .histograms figure { margin: 0; }
      .histograms figcaption { font-size: 12px; max-width: 340px; word-break: break-all; }
      .note, footer { color: #555; font-size: 12px; }
      footer { margin-top: 28px; border-top: 1px solid #ccc; }
      """;
}
