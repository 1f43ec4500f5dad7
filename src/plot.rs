//! Figures for the report: line charts, heat maps and bar charts drawn with
//! plotters, as PNG (a pixel buffer encoded here) or as SVG. A figure is a
//! [`Plot`], a description that either backend draws, so the PNG and the SVG
//! of a figure show the same thing. Every axis says how it is ticked
//! ([`Ticks`]): whole numbers, reals, or a log scale.
//!
//! The font is embedded (DejaVu Sans, data/fonts/), so no system font is
//! needed for PNGs. An SVG keeps its text as text: its font family names
//! DejaVu Sans with sans-serif as the fallback, so a viewer without DejaVu
//! still shows every label.

use plotters::coord::Shift;
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Once;

const WIDTH: u32 = 960;
const HEIGHT: u32 = 540;
const FONT: &[u8] = include_bytes!("../data/fonts/DejaVuSans.ttf");
/// The family the font is registered under: plotters looks fonts up by this
/// string, and the SVG backend writes it as the CSS `font-family` list.
const FAMILY: &str = "DejaVu Sans, sans-serif";
/// Tick counts to aim at: the x axis is about twice as long as the y axis.
const X_TICKS: usize = 10;
const Y_TICKS: usize = 8;

/// How an axis is scaled, ticked and labelled; chosen per axis by the
/// figure, never guessed from the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticks {
    /// Whole numbers (N, keys, rounds, counts): ticks only at integers,
    /// labelled without decimals.
    Integer,
    /// Real numbers: ticks at 1, 2 or 5 times a power of ten, all labelled
    /// with the fewest decimals that step needs (0.5 -> one, 0.05 -> two).
    Real,
    /// Base-2 log scale: ticks at powers of two, labelled 1, 2, 4, ...
    Log2,
    /// Base-10 log scale: ticks at powers of ten, labelled 1, 10, 100, ...
    Log10,
}

/// One axis of a figure: its label and how it is ticked.
#[derive(Clone, Debug)]
pub struct Axis {
    pub label: String,
    pub ticks: Ticks,
}

impl Axis {
    pub fn integer(label: impl Into<String>) -> Self {
        Axis { label: label.into(), ticks: Ticks::Integer }
    }
    pub fn real(label: impl Into<String>) -> Self {
        Axis { label: label.into(), ticks: Ticks::Real }
    }
    pub fn log2(label: impl Into<String>) -> Self {
        Axis { label: label.into(), ticks: Ticks::Log2 }
    }
    pub fn log10(label: impl Into<String>) -> Self {
        Axis { label: label.into(), ticks: Ticks::Log10 }
    }
}

/// A named line of (x, y) points.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// One bar group of a bar chart: a label per bar and (value, error) per series.
pub struct Bars {
    pub label: String,
    pub values: Vec<(f64, f64)>,
}

/// A figure, drawn on demand as PNG or SVG.
pub struct Plot {
    title: String,
    x: Axis,
    y: Axis,
    kind: Kind,
}

enum Kind {
    Lines(Vec<Series>),
    /// `cells` (x index, y index, value) on a `grid` of columns x rows
    /// spanning `x_range` x `y_range`.
    Heatmap {
        grid: (usize, usize),
        x_range: Range<f64>,
        y_range: Range<f64>,
        cells: Vec<(usize, usize, f64)>,
    },
    Bars {
        series: Vec<String>,
        groups: Vec<Bars>,
    },
}

impl Plot {
    /// A line chart; a point a log axis cannot show (zero or negative)
    /// breaks its line there.
    pub fn lines(title: impl Into<String>, x: Axis, y: Axis, series: Vec<Series>) -> Self {
        Plot { title: title.into(), x, y, kind: Kind::Lines(series) }
    }

    /// A heat map of `cells` (x index, y index, value) on a `grid` of
    /// columns x rows spanning `x_range` x `y_range` (linear axes); colour
    /// from low (blue) to high (yellow), with its scale beside.
    pub fn heatmap(
        title: impl Into<String>,
        (x, y): (Axis, Axis),
        grid: (usize, usize),
        (x_range, y_range): (Range<f64>, Range<f64>),
        cells: Vec<(usize, usize, f64)>,
    ) -> Self {
        Plot { title: title.into(), x, y, kind: Kind::Heatmap { grid, x_range, y_range, cells } }
    }

    /// Grouped bars with error bars: one group per entry, one bar per series;
    /// the groups' labels stand under the x axis.
    pub fn bars(title: impl Into<String>, x: &str, y: Axis, series: &[&str], groups: Vec<Bars>) -> Self {
        let series = series.iter().map(|s| s.to_string()).collect();
        // The x axis is categorical: its ticks are the groups' labels, so only its label is used.
        Plot { title: title.into(), x: Axis::integer(x), y, kind: Kind::Bars { series, groups } }
    }

    /// The figure as PNG bytes.
    pub fn png(&self) -> anyhow::Result<Vec<u8>> {
        register_font();
        let mut pixels = vec![0u8; (WIDTH * HEIGHT * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut pixels, (WIDTH, HEIGHT)).into_drawing_area();
            self.draw(&root, false)?;
            root.present().map_err(plot_error)?;
        }
        let mut png = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut png, WIDTH, HEIGHT);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.write_header()?.write_image_data(&pixels)?;
        }
        Ok(png)
    }

    /// The figure as an SVG document (text kept as text).
    pub fn svg(&self) -> anyhow::Result<String> {
        register_font();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
            self.draw(&root, true)?;
            root.present().map_err(plot_error)?;
        }
        Ok(svg)
    }

    /// Draws the figure; `joined`: lines as whole paths (SVG) or segments (bitmap).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, joined: bool) -> anyhow::Result<()> {
        root.fill(&WHITE).map_err(plot_error)?;
        match &self.kind {
            Kind::Lines(series) => draw_lines(root, self, series, joined),
            Kind::Heatmap { grid, x_range, y_range, cells } => {
                draw_heatmap(root, self, *grid, (x_range.clone(), y_range.clone()), cells)
            }
            Kind::Bars { series, groups } => draw_bars(root, self, series, groups),
        }
    }
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is valid TrueType: a failure here is a build defect.
        plotters::style::register_font(FAMILY, FontStyle::Normal, FONT)
            .unwrap_or_else(|_| panic!("the embedded font loads"));
    });
}

fn plot_error<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("plotting failed: {e:?}")
}

/// An axis laid out: the range it shows (in plotted units: exponents on a
/// log axis), its labelled ticks and its lighter grid lines.
struct Scale {
    ticks: Ticks,
    range: Range<f64>,
    bold: Vec<f64>,
    light: Vec<f64>,
    /// Decimals of a `Real` axis's labels.
    decimals: usize,
    /// A `Log10` axis too wide to write its ticks out: all are labelled as
    /// powers of ten, so one axis never mixes 10000 with 10⁵.
    powers: bool,
}

impl Ticks {
    /// A value in plotted units; `None` where a log axis cannot show it.
    fn plotted(self, v: f64) -> Option<f64> {
        match self {
            _ if !v.is_finite() => None,
            Ticks::Integer | Ticks::Real => Some(v),
            Ticks::Log2 => (v > 0.0).then(|| v.log2()),
            Ticks::Log10 => (v > 0.0).then(|| v.log10()),
        }
    }
}

impl Scale {
    /// The scale that shows `values` (in data units) with a small margin.
    fn fit(ticks: Ticks, values: impl Iterator<Item = f64>, target: usize) -> Scale {
        let (lo, hi) = values
            .filter_map(|v| ticks.plotted(v))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        let range = if !lo.is_finite() {
            0.0..1.0
        } else {
            let pad = if hi > lo { 0.04 * (hi - lo) } else { 0.5 };
            lo - pad..hi + pad
        };
        Scale::over(ticks, range, target)
    }

    /// The scale over `range`, given in plotted units.
    fn over(ticks: Ticks, range: Range<f64>, target: usize) -> Scale {
        let (lo, hi) = (range.start, range.end);
        let (bold, light, decimals) = match ticks {
            Ticks::Integer | Ticks::Real => linear_ticks(lo, hi, target, ticks == Ticks::Integer),
            Ticks::Log2 => (log2_ticks(lo, hi), Vec::new(), 0),
            Ticks::Log10 => log10_ticks(lo, hi),
        };
        let powers = ticks == Ticks::Log10 && bold.iter().any(|k| !(-3.0..5.0).contains(&k.floor()));
        Scale { ticks, range, bold, light, decimals, powers }
    }

    fn coord(&self) -> Placed {
        Placed::new(self.range.clone(), self.bold.clone(), self.light.clone())
    }

    /// The label of a tick at `v` (plotted units).
    fn label(&self, v: f64) -> String {
        match self.ticks {
            Ticks::Integer => format!("{}", v.round() as i64),
            Ticks::Real => fixed(v, self.decimals),
            Ticks::Log2 => number(v.exp2()),
            Ticks::Log10 => power_of_ten(v, self.powers),
        }
    }

    /// `v` (plotted units) as a fraction of the range shown.
    fn unit(&self, v: f64) -> f64 {
        (v - self.range.start) / (self.range.end - self.range.start)
    }

    /// Room for the widest tick label on a vertical axis, and its description.
    fn label_area(&self) -> u32 {
        let widest = self.bold.iter().map(|&v| self.label(v).chars().count()).max().unwrap_or(1);
        40 + 8 * widest as u32
    }
}

/// A linear coordinate with the ticks and grid lines placed here, not by
/// plotters (whose own choice puts fractional ticks on integer axes).
struct Placed {
    inner: RangedCoordf64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Placed {
    fn new(range: Range<f64>, bold: Vec<f64>, light: Vec<f64>) -> Self {
        Placed { inner: range.into(), bold, light }
    }
}

impl Ranged for Placed {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() { self.light.clone() } else { self.bold.clone() }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

/// Ticks at multiples of a step of 1, 2 or 5 times a power of ten (at least
/// 1 for integers), about `target` of them, with lighter lines between;
/// and the decimals the step needs.
fn linear_ticks(lo: f64, hi: f64, target: usize, integer: bool) -> (Vec<f64>, Vec<f64>, usize) {
    let raw = (hi - lo).max(f64::MIN_POSITIVE) / target.max(1) as f64;
    let (mut mantissa, mut exponent) = nice(raw);
    if integer && exponent < 0 {
        (mantissa, exponent) = (1, 0);
    }
    let step = f64::from(mantissa) * 10f64.powi(exponent);
    let multiples = |step: f64| -> Vec<f64> {
        let (first, last) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
        (first..=last).map(|k| k as f64 * step).collect()
    };
    // Light lines: fifths of a 1 or 5 step, halves of a 2 step; on an
    // integer axis only where they fall on integers.
    let parts = if mantissa == 2 { 2 } else { 5 };
    let sub = step / f64::from(parts);
    let light = if integer && (sub < 1.0 || sub.fract() != 0.0) { Vec::new() } else { multiples(sub) };
    (multiples(step), light, usize::try_from(-exponent).unwrap_or(0))
}

/// `raw` rounded up to 1, 2 or 5 times a power of ten: (mantissa, exponent).
fn nice(raw: f64) -> (u8, i32) {
    let exponent = raw.log10().floor() as i32;
    let m = raw / 10f64.powi(exponent);
    match m {
        _ if m <= 1.0 + 1e-9 => (1, exponent),
        _ if m <= 2.0 + 1e-9 => (2, exponent),
        _ if m <= 5.0 + 1e-9 => (5, exponent),
        _ => (1, exponent + 1),
    }
}

/// Every power of two in range (exponents), every other one when there are
/// more than a dozen.
fn log2_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let all: Vec<i64> = (lo.ceil() as i64..=hi.floor() as i64).collect();
    let every = if all.len() > 12 { 2 } else { 1 };
    all.into_iter().filter(|k| k % every == 0).map(|k| k as f64).collect()
}

/// Powers of ten in range (exponents) labelled, 2..9 times them as light
/// lines; over less than two decades 2 and 5 times them are labelled too.
fn log10_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>, usize) {
    let decades = (lo.floor() as i64)..=(hi.ceil() as i64);
    let inside = |v: &f64| (lo..=hi).contains(v);
    let at = |k: i64, m: u32| k as f64 + f64::from(m).log10();
    let powers: Vec<f64> = decades.clone().map(|k| k as f64).filter(inside).collect();
    let mut bold = powers.clone();
    let mut light: Vec<f64> = decades.clone().flat_map(|k| (2..10).map(move |m| at(k, m))).filter(inside).collect();
    if powers.len() < 2 {
        bold = decades.flat_map(|k| [1, 2, 5].map(|m| at(k, m))).filter(inside).collect();
        light.retain(|v| !bold.iter().any(|b| (b - v).abs() < 1e-9));
    }
    (bold, light, 0)
}

/// `v` with `decimals` decimals, never "-0" or "-0.00".
fn fixed(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => text,
    }
}

/// `v` in the fewest digits that show it (up to six decimals), never "-0".
fn number(v: f64) -> String {
    let text = fixed(v, 6);
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// The label of 10^`v`: written out (0.001 to 10000), or as 10 with a
/// superscript exponent when `powers`.
fn power_of_ten(v: f64, powers: bool) -> String {
    let k = v.floor();
    let value = 10f64.powf(v);
    if !powers {
        return number(value);
    }
    let m = (value / 10f64.powf(k)).round();
    const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let exponent: String =
        format!("{}", k as i64).chars().map(|c| c.to_digit(10).map_or('⁻', |d| SUPERSCRIPT[d as usize])).collect();
    if m == 1.0 { format!("10{exponent}") } else { format!("{m}×10{exponent}") }
}

/// Colours of successive series.
fn colour(k: usize) -> RGBColor {
    const PALETTE: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    PALETTE[k % PALETTE.len()]
}

/// The line chart of `series` on `plot`'s axes. `joined` draws each line as
/// one path; otherwise as separate segments, for the bitmap backend, whose
/// joins of thick lines overshoot at sharp spikes.
fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &Plot,
    series: &[Series],
    joined: bool,
) -> anyhow::Result<()> {
    let all = || series.iter().flat_map(|s| s.points.iter());
    let xs = Scale::fit(plot.x.ticks, all().map(|p| p.0), X_TICKS);
    let ys = Scale::fit(plot.y.ticks, all().map(|p| p.1), Y_TICKS);
    let lines: Vec<Vec<Vec<(f64, f64)>>> = series.iter().map(|s| pieces(plot, s)).collect();
    let entries: Vec<(&str, RGBColor)> =
        series.iter().enumerate().map(|(k, s)| (s.label.as_str(), colour(k))).collect();
    let unit = |(x, y): (f64, f64)| (xs.unit(x), ys.unit(y));
    let samples = lines
        .iter()
        .flatten()
        .flat_map(|path| path.windows(2).flat_map(move |w| (0..8).map(move |t| lerp(w[0], w[1], f64::from(t) / 8.0))));
    let place = if series.len() > 1 { place_legend(samples.map(unit), &entries) } else { Legend::None };
    let (area, strip) = root.split_horizontally(WIDTH - place.outside_width());
    let mut chart = ChartBuilder::on(&area)
        .caption(&plot.title, (FAMILY, 22))
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(ys.label_area())
        .build_cartesian_2d(xs.coord(), ys.coord())
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .x_desc(&plot.x.label)
        .y_desc(&plot.y.label)
        .x_label_formatter(&|v| xs.label(*v))
        .y_label_formatter(&|v| ys.label(*v))
        .bold_line_style(BLACK.mix(0.18))
        .light_line_style(BLACK.mix(0.06))
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 15))
        .draw()
        .map_err(plot_error)?;
    for ((label, c), line) in entries.iter().zip(&lines) {
        let c = *c;
        let paths: Vec<Vec<(f64, f64)>> = if joined {
            line.clone()
        } else {
            line.iter().flat_map(|p| p.windows(2).map(<[(f64, f64)]>::to_vec)).collect()
        };
        chart
            .draw_series(paths.into_iter().map(|p| PathElement::new(p, c.stroke_width(2))))
            .map_err(plot_error)?
            .label(*label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
    }
    place.draw(&mut chart, &strip, &entries, false)
}

/// The point a fraction `t` of the way from `a` to `b`.
fn lerp(a: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
}

/// A series in plotted units, in pieces: a point a log axis cannot show
/// ends one piece, so the line breaks there.
fn pieces(plot: &Plot, s: &Series) -> Vec<Vec<(f64, f64)>> {
    let mut pieces = vec![Vec::new()];
    for &(x, y) in &s.points {
        match (plot.x.ticks.plotted(x), plot.y.ticks.plotted(y)) {
            (Some(x), Some(y)) => pieces.last_mut().expect("one piece").push((x, y)),
            _ => pieces.push(Vec::new()),
        }
    }
    pieces.retain(|p| !p.is_empty());
    pieces
}

/// Where a figure's legend goes.
enum Legend {
    /// One series: no legend.
    None,
    /// Inside the plot, in a corner the data leave clear.
    Corner(SeriesLabelPosition),
    /// In a strip this many pixels wide right of the plot: no corner is clear.
    Outside(u32),
}

/// The legend's place: the first clear corner (upper right, upper left,
/// lower right, lower left) for a box of the entries' size, given `samples`
/// of what is drawn in unit coordinates of the plot; else outside.
fn place_legend(samples: impl Iterator<Item = (f64, f64)>, entries: &[(&str, RGBColor)]) -> Legend {
    let widest = entries.iter().map(|e| e.0.chars().count()).max().unwrap_or(0);
    // The box in fractions of a plot of about 840 x 420 pixels, with a margin.
    let (w, h) = ((44 + 8 * widest) as f64 / 840.0 + 0.03, (14 + 20 * entries.len()) as f64 / 420.0 + 0.03);
    let corners = [
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::LowerRight, true, false),
        (SeriesLabelPosition::LowerLeft, false, false),
    ];
    let mut clear = [true; 4];
    for (u, v) in samples {
        for (k, &(_, right, top)) in corners.iter().enumerate() {
            let inside_x = if right { u > 1.0 - w } else { u < w };
            let inside_y = if top { v > 1.0 - h } else { v < h };
            clear[k] &= !(inside_x && inside_y);
        }
    }
    match (0..4).find(|&k| clear[k]) {
        Some(k) => Legend::Corner(corners[k].0.clone()),
        None => Legend::Outside((40 + 8 * widest as u32).min(WIDTH / 3)),
    }
}

impl Legend {
    fn outside_width(&self) -> u32 {
        match self {
            Legend::Outside(width) => *width,
            _ => 0,
        }
    }

    /// Draws the legend: in its corner of `chart`, or in `strip` beside it;
    /// `boxes` marks entries with a filled box (bars), else a line.
    fn draw<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
        &self,
        chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
        strip: &DrawingArea<DB, Shift>,
        entries: &[(&str, RGBColor)],
        boxes: bool,
    ) -> anyhow::Result<()> {
        match self {
            Legend::None => Ok(()),
            Legend::Corner(position) => chart
                .configure_series_labels()
                .position(position.clone())
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font((FAMILY, 14))
                .draw()
                .map_err(plot_error),
            Legend::Outside(_) => {
                for (k, &(label, c)) in entries.iter().enumerate() {
                    let y = 60 + 22 * k as i32;
                    if boxes {
                        strip.draw(&Rectangle::new([(4, y - 6), (16, y + 6)], c.filled())).map_err(plot_error)?;
                    } else {
                        strip.draw(&PathElement::new(vec![(0, y), (18, y)], c.stroke_width(2))).map_err(plot_error)?;
                    }
                    let style = TextStyle::from((FAMILY, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
                    strip.draw(&Text::new(label, (24, y), style)).map_err(plot_error)?;
                }
                Ok(())
            }
        }
    }
}

/// The heat map, and its colour scale in a strip on the right.
fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &Plot,
    (columns, rows): (usize, usize),
    (x_range, y_range): (Range<f64>, Range<f64>),
    cells: &[(usize, usize, f64)],
) -> anyhow::Result<()> {
    let (lo, hi) = cells.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), c| (a.min(c.2), b.max(c.2)));
    let (lo, hi) = if lo.is_finite() { (lo, if hi > lo { hi } else { lo + 1.0 }) } else { (0.0, 1.0) };
    let shade = |v: f64| ViridisRGB::get_color_normalized(v, lo, hi);
    let (xs, ys) =
        (Scale::over(plot.x.ticks, x_range.clone(), X_TICKS), Scale::over(plot.y.ticks, y_range.clone(), Y_TICKS));
    let (area, legend) = root.split_horizontally(WIDTH - 110);
    let mut chart = ChartBuilder::on(&area)
        .caption(&plot.title, (FAMILY, 22))
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(ys.label_area())
        .build_cartesian_2d(xs.coord(), ys.coord())
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(&plot.x.label)
        .y_desc(&plot.y.label)
        .x_label_formatter(&|v| xs.label(*v))
        .y_label_formatter(&|v| ys.label(*v))
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 15))
        .draw()
        .map_err(plot_error)?;
    let (dx, dy) = ((x_range.end - x_range.start) / columns as f64, (y_range.end - y_range.start) / rows as f64);
    chart
        .draw_series(runs(cells, shade).into_iter().map(|(r, c0, c1, colour)| {
            let (y0, x0, x1) =
                (y_range.start + r as f64 * dy, x_range.start + c0 as f64 * dx, x_range.start + c1 as f64 * dx);
            Rectangle::new([(x0, y0), (x1, y0 + dy)], colour.filled())
        }))
        .map_err(plot_error)?;
    let scale = Scale::over(Ticks::Real, lo..hi, Y_TICKS);
    let mut strip = ChartBuilder::on(&legend)
        .margin_top(50)
        .margin_bottom(60)
        .margin_right(10)
        .y_label_area_size(scale.label_area() - 10)
        .build_cartesian_2d(0.0..1.0, scale.coord())
        .map_err(plot_error)?;
    strip
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_label_formatter(&|v| scale.label(*v))
        .label_style((FAMILY, 14))
        .draw()
        .map_err(plot_error)?;
    let steps = 100;
    strip
        .draw_series((0..steps).map(|k| {
            let (v0, v1) = (lo + (hi - lo) * k as f64 / steps as f64, lo + (hi - lo) * (k + 1) as f64 / steps as f64);
            Rectangle::new([(0.0, v0), (1.0, v1)], shade(v0).filled())
        }))
        .map_err(plot_error)?;
    Ok(())
}

/// The cells as horizontal runs of one colour: (row, first column, end
/// column, colour). A cell given twice keeps its last value, as drawing them
/// in order would; runs keep an SVG of a fine grid small.
fn runs(cells: &[(usize, usize, f64)], shade: impl Fn(f64) -> RGBColor) -> Vec<(usize, usize, usize, RGBColor)> {
    let grid: BTreeMap<(usize, usize), RGBColor> = cells.iter().map(|&(c, r, v)| ((r, c), shade(v))).collect();
    let mut out: Vec<(usize, usize, usize, RGBColor)> = Vec::new();
    for ((r, c), colour) in grid {
        match out.last_mut() {
            Some(run) if run.0 == r && run.2 == c && run.3 == colour => run.2 = c + 1,
            _ => out.push((r, c, c + 1, colour)),
        }
    }
    out
}

/// Grouped bars with error bars.
fn draw_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &Plot,
    series: &[String],
    groups: &[Bars],
) -> anyhow::Result<()> {
    let top = groups.iter().flat_map(|g| g.values.iter().map(|v| v.0 + v.1)).fold(0.0f64, f64::max);
    let bottom = groups.iter().flat_map(|g| g.values.iter().map(|v| v.0 - v.1)).fold(0.0f64, f64::min);
    let n = groups.len().max(1);
    let ys = Scale::over(plot.y.ticks, bottom * 1.05..(top * 1.12).max(1e-9), Y_TICKS);
    let width = 0.8 / series.len().max(1) as f64;
    let x0 = |g: usize, s: usize| g as f64 + 0.1 + s as f64 * width;
    let entries: Vec<(&str, RGBColor)> = series.iter().enumerate().map(|(k, s)| (s.as_str(), colour(k))).collect();
    // What a legend would cover: a grid of points over every bar.
    let samples = groups.iter().enumerate().flat_map(|(g, group)| {
        group.values.iter().enumerate().flat_map(move |(s, &(v, e))| {
            (0..=4).flat_map(move |i| {
                (0..=8).map(move |j| (x0(g, s) + width * f64::from(i) / 4.0, (v + e) * f64::from(j) / 8.0))
            })
        })
    });
    let place = place_legend(samples.map(|(x, y)| (x / n as f64, ys.unit(y))), &entries);
    let (area, strip) = root.split_horizontally(WIDTH - place.outside_width());
    let centres: Vec<f64> = (0..n).map(|g| g as f64 + 0.5).collect();
    let mut chart = ChartBuilder::on(&area)
        .caption(&plot.title, (FAMILY, 22))
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(ys.label_area())
        .build_cartesian_2d(Placed::new(0.0..n as f64, centres, Vec::new()), ys.coord())
        .map_err(plot_error)?;
    let label = |x: &f64| groups.get(x.floor() as usize).map(|g| g.label.clone()).unwrap_or_default();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&label)
        .y_label_formatter(&|v| ys.label(*v))
        .y_desc(&plot.y.label)
        .x_desc(&plot.x.label)
        .bold_line_style(BLACK.mix(0.18))
        .light_line_style(BLACK.mix(0.06))
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 15))
        .draw()
        .map_err(plot_error)?;
    for (s, &(name, c)) in entries.iter().enumerate() {
        chart
            .draw_series(groups.iter().enumerate().filter_map(|(g, group)| {
                group.values.get(s).map(|&(v, _)| Rectangle::new([(x0(g, s), 0.0), (x0(g, s) + width, v)], c.filled()))
            }))
            .map_err(plot_error)?
            .label(name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
        chart
            .draw_series(groups.iter().enumerate().filter_map(|(g, group)| {
                group.values.get(s).filter(|v| v.1 > 0.0).map(|&(v, e)| {
                    let x = x0(g, s) + 0.5 * width;
                    PathElement::new(vec![(x, v - e), (x, v + e)], BLACK.stroke_width(2))
                })
            }))
            .map_err(plot_error)?;
    }
    place.draw(&mut chart, &strip, &entries, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The labels of a scale's labelled ticks.
    fn labels(scale: &Scale) -> Vec<String> {
        scale.bold.iter().map(|&v| scale.label(v)).collect()
    }

    /// The text of every `<text>` element of an SVG.
    fn svg_texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim().to_string())
            .collect()
    }

    #[test]
    fn integer_axes_have_integer_ticks_only() {
        for range in [0.92..3.08, 0.5..40.5, 0.5..300.5, -3.2..1024.7, 0.0..1e6, 5.0..5.5] {
            let scale = Scale::over(Ticks::Integer, range.clone(), X_TICKS);
            assert!(!scale.bold.is_empty(), "{range:?}: no ticks");
            for &v in scale.bold.iter().chain(&scale.light) {
                assert_eq!(v.fract(), 0.0, "{range:?}: tick at {v}");
            }
            for label in labels(&scale) {
                assert!(label.parse::<i64>().is_ok(), "{range:?}: label {label:?}");
            }
        }
        assert_eq!(labels(&Scale::over(Ticks::Integer, 0.92..3.08, X_TICKS)), ["1", "2", "3"]);
        assert_eq!(labels(&Scale::over(Ticks::Integer, 0.0..1000.0, X_TICKS))[..3], ["0", "100", "200"]);
    }

    #[test]
    fn labels_are_never_negative_zero() {
        assert_eq!(fixed(-0.0, 3), "0.000");
        assert_eq!(fixed(-0.0004, 3), "0.000");
        assert_eq!(fixed(-0.5, 1), "-0.5");
        assert_eq!(number(-0.0), "0");
        for range in [-1.04..1.04, -0.00037..0.00052, -5e-7..3e-7, -1.0..-0.0, -0.3..0.0] {
            for ticks in [Ticks::Real, Ticks::Integer] {
                for label in labels(&Scale::over(ticks, range.clone(), Y_TICKS)) {
                    let digits = label.trim_start_matches('-');
                    assert!(
                        !(label.starts_with('-') && digits.bytes().all(|b| b == b'0' || b == b'.')),
                        "{range:?}: label {label:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn real_labels_share_the_decimals_their_step_needs() {
        assert_eq!(
            labels(&Scale::over(Ticks::Real, 0.0..1.0, X_TICKS)),
            ["0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"]
        );
        assert_eq!(labels(&Scale::over(Ticks::Real, -1.04..1.04, Y_TICKS)), ["-1.0", "-0.5", "0.0", "0.5", "1.0"]);
        assert_eq!(labels(&Scale::over(Ticks::Real, 0.0..100.0, X_TICKS))[..3], ["0", "10", "20"]);
        assert_eq!(labels(&Scale::over(Ticks::Real, 0.0028..0.0085, Y_TICKS))[..2], ["0.003", "0.004"]);
    }

    #[test]
    fn log_axes_tick_at_powers() {
        let n = Scale::fit(Ticks::Log2, (1..=1024).map(f64::from), X_TICKS);
        assert_eq!(labels(&n), ["1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"]);
        let counts = Scale::fit(Ticks::Log10, [1.0, 4e5].into_iter(), Y_TICKS);
        assert_eq!(labels(&counts), ["10⁰", "10¹", "10²", "10³", "10⁴", "10⁵"]);
        let small = Scale::fit(Ticks::Log10, [1.0, 5000.0].into_iter(), Y_TICKS);
        assert_eq!(labels(&small), ["1", "10", "100", "1000"]);
        assert_eq!(Ticks::Log2.plotted(0.0), None);
    }

    #[test]
    fn a_figure_is_a_png_or_an_svg_with_its_labels_as_text() {
        let series = vec![Series {
            label: "a".into(),
            points: (1..=64).map(|n| (f64::from(n), f64::from(n).sqrt() - 4.0)).collect(),
        }];
        let plot = Plot::lines("test <&>", Axis::log2("N"), Axis::real("sqrt N - 4"), series);
        assert_eq!(&plot.png().unwrap()[1..4], b"PNG");
        let svg = plot.svg().unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
        let texts = svg_texts(&svg);
        for expected in ["test &lt;&amp;&gt;", "N", "sqrt N - 4", "1", "2", "4", "8", "16", "32", "64", "0", "-2", "4"]
        {
            assert!(texts.iter().any(|t| t == expected), "{expected:?} not in {texts:?}");
        }
        assert!(svg.contains(&format!("font-family=\"{FAMILY}\"")));
    }

    #[test]
    fn every_kind_draws() {
        let bars = vec![Bars { label: "g".into(), values: vec![(1.0, 0.1), (2.0, 0.2)] }];
        let cells = vec![(0, 0, 1.0), (1, 1, 2.0), (1, 1, 3.0)];
        let (x, y) = (Axis::integer("x"), Axis::integer("y"));
        for plot in [
            Plot::heatmap("h", (x.clone(), y.clone()), (2, 2), (0.5..2.5, 0.5..2.5), cells),
            Plot::bars("b", "x", Axis::real("y"), &["one", "two"], bars),
            Plot::lines("empty", x, y, Vec::new()),
        ] {
            assert_eq!(&plot.png().unwrap()[1..4], b"PNG");
            assert!(plot.svg().unwrap().starts_with("<svg"));
        }
    }

    #[test]
    fn heat_map_cells_merge_into_runs_of_one_colour() {
        let cells = [(0, 0, 1.0), (1, 0, 1.0), (2, 0, 2.0), (0, 1, 1.0), (1, 1, 5.0), (1, 1, 1.0)];
        let shade = |v: f64| RGBColor(v as u8, 0, 0);
        let runs: Vec<_> = runs(&cells, shade).into_iter().map(|(r, c0, c1, c)| (r, c0, c1, c.0)).collect();
        assert_eq!(runs, [(0, 0, 2, 1), (0, 2, 3, 2), (1, 0, 2, 1)]);
    }
}
