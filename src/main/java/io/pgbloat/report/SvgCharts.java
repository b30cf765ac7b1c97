package io.pgbloat.report;

import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.Estimate;
import java.util.List;
import java.util.Locale;

/**
 * The HTML report's charts as inline SVG, drawn here so that the page needs nothing from the
 * network: horizontal bars (names are long, so they go on the left, one row per relation) on
 * a linear byte axis, and small column charts for the per-page histograms. Every name goes
 * through {@link HtmlText}; the full name is in a {@code <title>}, the browser's tooltip.
 */
final class SvgCharts {
  private static final String SVG_NAMESPACE = "http://www.w3.org/2000/svg";
  /** Width of a bar chart; the page's body is laid out for it. */
  static final int WIDTH = 1120;
  /** Room for the names left of the bars. */
  private static final int LABEL_WIDTH = 340;
  /** Names longer than this many characters are shortened in the label (not in the tooltip). */
  private static final int LABEL_CHARACTERS = 48;
  /** Room right of the bars for the value's text. */
  private static final int VALUE_WIDTH = 90;
  private static final int ROW_HEIGHT = 18;
  private static final int BAR_HEIGHT = 12;
  private static final int TOP = 26;
  private static final int AXIS_HEIGHT = 26;
  /** Grid intervals wanted on a byte axis; round steps give between 3 and 5 (10 for 1 kB). */
  private static final int TICKS = 5;
  private static final String[] AXIS_UNITS = {"B", "kB", "MB", "GB", "TB", "PB"};
  private static final double BYTES_PER_UNIT = 1024;

  private static final int HISTOGRAM_WIDTH = 340;
  private static final int HISTOGRAM_HEIGHT = 190;
  private static final int HISTOGRAM_LEFT = 50;
  private static final int HISTOGRAM_BOTTOM = 36;

  private SvgCharts() {}

  /** Wasted bytes per relation, a bar at the estimate and an error bar over its 95 % interval. */
  static String wastedBytes(List<RankedRelation> relations) {
    Axis axis = axisFor(relations.stream().mapToDouble(r -> r.wasted().high()).max().orElse(0));
    double axisMax = axis.max();
    StringBuilder svg = open(relations.size(), "Wasted bytes per relation with 95 % intervals");
    axis(svg, relations.size(), axis);
    for (int i = 0; i < relations.size(); i++) {
      RankedRelation r = relations.get(i);
      Estimate w = r.wasted();
      int y = TOP + i * ROW_HEIGHT;
      svg.append("<g class=\"row\"><title>").append(HtmlText.name(r.chartLabel())).append("&#10;wasted ")
          .append(TableReport.size(Math.round(w.value())))
          .append(w.isExact() ? " (exact)" : ", 95 % interval " + interval(w)).append("</title>\n");
      label(svg, r, y);
      rect(svg, "wasted", x(0, axisMax), y, x(w.value(), axisMax) - x(0, axisMax));
      double end = w.value();
      if (!w.isExact()) {
        errorBar(svg, x(w.low(), axisMax), x(w.high(), axisMax), y + BAR_HEIGHT / 2.0);
        end = w.high();
      }
      valueText(svg, x(end, axisMax) + 6, y, TableReport.size(Math.round(w.value())));
      svg.append("</g>\n");
    }
    return svg.append("</svg>\n").toString();
  }

  /** Dead and free bytes per relation, stacked: dead first, then free. */
  static String deadAndFree(List<RankedRelation> relations) {
    Axis axis = axisFor(relations.stream().mapToDouble(r -> r.wasted().value()).max().orElse(0));
    double axisMax = axis.max();
    StringBuilder svg = open(relations.size(), "Dead and free bytes per relation");
    axis(svg, relations.size(), axis);
    legend(svg);
    for (int i = 0; i < relations.size(); i++) {
      RankedRelation r = relations.get(i);
      double dead = r.row().figures().deadTupleLen().value();
      double free = r.row().figures().freeSpace().value();
      int y = TOP + i * ROW_HEIGHT;
      svg.append("<g class=\"row\"><title>").append(HtmlText.name(r.chartLabel()))
          .append("&#10;dead ").append(TableReport.size(Math.round(dead)))
          .append(", free ").append(TableReport.size(Math.round(free))).append("</title>\n");
      label(svg, r, y);
      double deadEnd = x(dead, axisMax);
      rect(svg, "dead", x(0, axisMax), y, deadEnd - x(0, axisMax));
      rect(svg, "free", deadEnd, y, x(dead + free, axisMax) - deadEnd);
      valueText(svg, x(dead + free, axisMax) + 6, y, TableReport.size(Math.round(dead + free)));
      svg.append("</g>\n");
    }
    return svg.append("</svg>\n").toString();
  }

  /** One relation's pages per dead-fraction bin, as columns; the relation's name is said by the caller. */
  static String histogram(DeadFractionHistogram h) {
    long most = 0;
    for (int bin = 0; bin < DeadFractionHistogram.BINS; bin++) {
      most = Math.max(most, h.pages(bin));
    }
    double plotHeight = HISTOGRAM_HEIGHT - TOP - HISTOGRAM_BOTTOM;
    double columnWidth = (HISTOGRAM_WIDTH - HISTOGRAM_LEFT - 10.0) / DeadFractionHistogram.BINS;
    double bottom = HISTOGRAM_HEIGHT - HISTOGRAM_BOTTOM;
    StringBuilder svg = new StringBuilder();
    svg.append("<svg xmlns=\"").append(SVG_NAMESPACE).append("\" class=\"chart\" width=\"").append(HISTOGRAM_WIDTH)
        .append("\" height=\"").append(HISTOGRAM_HEIGHT).append("\" role=\"img\" aria-label=\"")
        .append("Pages per dead fraction of ").append(HtmlText.name(h.relation().qualifiedName())).append("\">\n");
    svg.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>%n",
        HISTOGRAM_LEFT - 4, (double) TOP + 4, most));
    svg.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">0</text>%n",
        HISTOGRAM_LEFT - 4, bottom));
    svg.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"12\" y=\"%.1f\" "
        + "transform=\"rotate(-90 12 %.1f)\" text-anchor=\"middle\">pages</text>%n",
        TOP + plotHeight / 2, TOP + plotHeight / 2));
    for (int bin = 0; bin < DeadFractionHistogram.BINS; bin++) {
      double left = HISTOGRAM_LEFT + bin * columnWidth;
      double height = most == 0 ? 0 : plotHeight * h.pages(bin) / most;
      int from = bin * 100 / DeadFractionHistogram.BINS;
      int to = (bin + 1) * 100 / DeadFractionHistogram.BINS;
      svg.append(String.format(Locale.ROOT, "<rect class=\"dead\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
          + "height=\"%.1f\"><title>%d pages with %d–%d %% of their bytes dead</title></rect>%n",
          left + 1, bottom - height, columnWidth - 2, height, h.pages(bin), from, to));
      svg.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>%n",
          left, bottom + 14, from));
    }
    svg.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">100</text>%n",
        HISTOGRAM_LEFT + DeadFractionHistogram.BINS * columnWidth, bottom + 14));
    svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>%n",
        HISTOGRAM_LEFT, bottom, HISTOGRAM_LEFT + DeadFractionHistogram.BINS * columnWidth, bottom));
    svg.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
        + "dead bytes, %% of the page</text>%n", HISTOGRAM_LEFT + DeadFractionHistogram.BINS * columnWidth / 2, bottom + 30));
    return svg.append("</svg>\n").toString();
  }

  /** "[12 kB, 40 kB]" */
  static String interval(Estimate e) {
    return "[" + TableReport.size((long) Math.floor(e.low())) + ", " + TableReport.size((long) Math.ceil(e.high())) + "]";
  }

  private static StringBuilder open(int rows, String description) {
    int height = TOP + rows * ROW_HEIGHT + AXIS_HEIGHT;
    return new StringBuilder().append("<svg xmlns=\"").append(SVG_NAMESPACE).append("\" class=\"chart\" width=\"")
        .append(WIDTH).append("\" height=\"").append(height).append("\" role=\"img\" aria-label=\"")
        .append(description).append("\">\n");
  }

  /** Grid lines and their labels under the bars. */
  private static void axis(StringBuilder svg, int rows, Axis axis) {
    int bottom = TOP + rows * ROW_HEIGHT;
    long lines = Math.round(axis.max() / axis.step());
    for (long t = 0; t <= lines; t++) {
      double bytes = axis.step() * t;
      double x = x(bytes, axis.max());
      svg.append(String.format(Locale.ROOT, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>%n",
          t == 0 ? "axis" : "grid", x, TOP - 4, x, bottom));
      svg.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
          x, bottom + 16, axisLabel(bytes, axis.unit())));
    }
  }

  private static void legend(StringBuilder svg) {
    int x = LABEL_WIDTH;
    svg.append("<rect class=\"dead\" x=\"").append(x).append("\" y=\"4\" width=\"12\" height=\"12\"/>")
        .append("<text class=\"tick\" x=\"").append(x + 16).append("\" y=\"14\">dead tuples</text>\n")
        .append("<rect class=\"free\" x=\"").append(x + 110).append("\" y=\"4\" width=\"12\" height=\"12\"/>")
        .append("<text class=\"tick\" x=\"").append(x + 126).append("\" y=\"14\">free space</text>\n");
  }

  private static void label(StringBuilder svg, RankedRelation r, int y) {
    svg.append("<text class=\"label\" x=\"").append(LABEL_WIDTH - 8).append("\" y=\"").append(y + BAR_HEIGHT - 1)
        .append("\" text-anchor=\"end\">").append(HtmlText.shortName(r.chartLabel(), LABEL_CHARACTERS))
        .append("</text>\n");
  }

  private static void rect(StringBuilder svg, String cssClass, double x, int y, double width) {
    svg.append(String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>%n",
        cssClass, x, y, Math.max(0, width), BAR_HEIGHT));
  }

  /** A line over the interval with a cap at each end. */
  private static void errorBar(StringBuilder svg, double from, double to, double y) {
    double cap = BAR_HEIGHT / 2.0;
    svg.append(String.format(Locale.ROOT, "<path class=\"interval\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\"/>%n",
        from, y, to, from, y - cap, y + cap, to, y - cap, y + cap));
  }

  private static void valueText(StringBuilder svg, double x, int y, String text) {
    svg.append(String.format(Locale.ROOT, "<text class=\"value\" x=\"%.1f\" y=\"%d\">%s</text>%n",
        x, y + BAR_HEIGHT - 1, HtmlText.escape(text)));
  }

  /** The x coordinate of {@code bytes} on an axis from 0 to {@code axisMax}. */
  private static double x(double bytes, double axisMax) {
    return LABEL_WIDTH + (WIDTH - LABEL_WIDTH - VALUE_WIDTH) * Math.max(0, bytes) / axisMax;
  }

  /**
   * A byte axis from 0: a round step (1, 2 or 5 times a power of ten, in the largest binary
   * unit that fits the data) and the first multiple of it at or above {@code bytes}, so that
   * about {@link #TICKS} grid lines fall on round numbers of kB, MB, ...
   *
   * @param max the axis end, in bytes
   * @param step bytes between grid lines
   * @param unit index into AXIS_UNITS of the labels' unit
   */
  record Axis(double max, double step, int unit) {}

  static Axis axisFor(double bytes) {
    double top = bytes > 0 ? bytes : BYTES_PER_UNIT; // nothing to draw: an axis of 1 kB keeps the scale finite
    int unit = unitOf(top);
    double unitBytes = Math.pow(BYTES_PER_UNIT, unit);
    double inUnit = top / unitBytes;
    double rawStep = inUnit / TICKS;
    double power = Math.pow(10, Math.floor(Math.log10(rawStep)));
    double step = 10 * power;
    for (double multiple : new double[] {1, 2, 5}) {
      if (multiple * power >= rawStep) {
        step = multiple * power;
        break;
      }
    }
    return new Axis(Math.ceil(inUnit / step - 1e-9) * step * unitBytes, step * unitBytes, unit);
  }

  private static int unitOf(double bytes) {
    int unit = 0;
    while (bytes >= BYTES_PER_UNIT && unit < AXIS_UNITS.length - 1) {
      bytes /= BYTES_PER_UNIT;
      unit++;
    }
    return unit;
  }

  private static String axisLabel(double bytes, int unit) {
    double inUnit = bytes / Math.pow(BYTES_PER_UNIT, unit);
    String number = inUnit == Math.rint(inUnit) ? Long.toString(Math.round(inUnit))
        : String.format(Locale.ROOT, "%.1f", inUnit);
    return number + " " + AXIS_UNITS[unit];
  }
}
