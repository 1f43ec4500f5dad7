//! PNG figures for the report: line charts, heat maps and bar charts drawn
//! with plotters into a pixel buffer and encoded as PNG. The font is
//! embedded (DejaVu Sans, data/fonts/), so no system font is needed.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::sync::Once;

const WIDTH: u32 = 960;
const HEIGHT: u32 = 540;
const FONT: &[u8] = include_bytes!("../data/fonts/DejaVuSans.ttf");

/// A figure's text: title and axis labels.
pub struct Axes<'a> {
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
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

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is valid TrueType: a failure here is a build defect.
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
            .unwrap_or_else(|_| panic!("the embedded font loads"));
    });
}

/// Draws into a white canvas and returns the PNG bytes.
fn render(draw: impl FnOnce(&DrawingArea<BitMapBackend, Shift>) -> anyhow::Result<()>) -> anyhow::Result<Vec<u8>> {
    register_font();
    let mut pixels = vec![0u8; (WIDTH * HEIGHT * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        draw(&root)?;
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

fn plot_error<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("plotting failed: {e:?}")
}

/// The range of values with a margin (a unit range around a single value).
fn range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return 0.0..1.0;
    }
    let pad = if hi > lo { 0.04 * (hi - lo) } else { 0.5 };
    lo - pad..hi + pad
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

/// A line chart; `log_y` draws the y axis on a log10 scale (positive values only).
pub fn lines(axes: &Axes, series: &[Series], log_y: bool) -> anyhow::Result<Vec<u8>> {
    render(|root| {
        let xs = range(series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let transform = |y: f64| if log_y { y.max(1e-300).log10() } else { y };
        let ys = range(series.iter().flat_map(|s| s.points.iter().map(|p| transform(p.1))));
        let mut chart = ChartBuilder::on(root)
            .caption(axes.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(xs, ys)
            .map_err(plot_error)?;
        let y_format = |v: &f64| if log_y { format!("1e{v:.0}") } else { format!("{v:.3}") };
        chart
            .configure_mesh()
            .x_desc(axes.x)
            .y_desc(if log_y { format!("{} (log scale)", axes.y) } else { axes.y.to_string() })
            .y_label_formatter(&y_format)
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(plot_error)?;
        for (k, s) in series.iter().enumerate() {
            let c = colour(k);
            chart
                .draw_series(LineSeries::new(s.points.iter().map(|&(x, y)| (x, transform(y))), c.stroke_width(2)))
                .map_err(plot_error)?
                .label(s.label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
        }
        if series.len() > 1 {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 14))
                .draw()
                .map_err(plot_error)?;
        }
        Ok(())
    })
}

/// A heat map of `cells` (x index, y index, value) on a `columns` x `rows`
/// grid; x and y ranges label the axes; colour from low (blue) to high (yellow).
pub fn heatmap(
    axes: &Axes,
    (columns, rows): (usize, usize),
    x_range: std::ops::Range<f64>,
    y_range: std::ops::Range<f64>,
    cells: &[(usize, usize, f64)],
) -> anyhow::Result<Vec<u8>> {
    render(|root| {
        let (lo, hi) = cells.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), c| (a.min(c.2), b.max(c.2)));
        let (area, legend) = root.split_horizontally(WIDTH - 110);
        let mut chart = ChartBuilder::on(&area)
            .caption(axes.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(x_range.clone(), y_range.clone())
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(axes.x)
            .y_desc(axes.y)
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(plot_error)?;
        let (dx, dy) = ((x_range.end - x_range.start) / columns as f64, (y_range.end - y_range.start) / rows as f64);
        let shade = |v: f64| ViridisRGB::get_color_normalized(v, lo, if hi > lo { hi } else { lo + 1.0 });
        chart
            .draw_series(cells.iter().map(|&(c, r, v)| {
                let x0 = x_range.start + c as f64 * dx;
                let y0 = y_range.start + r as f64 * dy;
                Rectangle::new([(x0, y0), (x0 + dx, y0 + dy)], shade(v).filled())
            }))
            .map_err(plot_error)?;
        // Colour scale.
        let mut scale = ChartBuilder::on(&legend)
            .margin_top(50)
            .margin_bottom(56)
            .margin_right(10)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..1.0, lo..if hi > lo { hi } else { lo + 1.0 })
            .map_err(plot_error)?;
        scale
            .configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .label_style(("sans-serif", 12))
            .draw()
            .map_err(plot_error)?;
        let steps = 100;
        let span = if hi > lo { hi - lo } else { 1.0 };
        scale
            .draw_series((0..steps).map(|k| {
                let v0 = lo + span * k as f64 / steps as f64;
                let v1 = lo + span * (k + 1) as f64 / steps as f64;
                Rectangle::new([(0.0, v0), (1.0, v1)], shade(v0).filled())
            }))
            .map_err(plot_error)?;
        Ok(())
    })
}

/// Grouped bars with error bars: one group per entry, one bar per series.
pub fn bars(axes: &Axes, series: &[&str], groups: &[Bars]) -> anyhow::Result<Vec<u8>> {
    render(|root| {
        let top = groups.iter().flat_map(|g| g.values.iter().map(|v| v.0 + v.1)).fold(0.0f64, f64::max);
        let bottom = groups.iter().flat_map(|g| g.values.iter().map(|v| v.0 - v.1)).fold(0.0f64, f64::min);
        let n = groups.len().max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(axes.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(90)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..n as f64, bottom * 1.05..(top * 1.12).max(1e-9))
            .map_err(plot_error)?;
        let labels: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
        let label = |x: &f64| {
            let k = x.floor() as usize;
            if (x - k as f64 - 0.5).abs() < 1e-9 { labels.get(k).cloned().unwrap_or_default() } else { String::new() }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(2 * n + 1)
            .x_label_formatter(&label)
            .x_label_style(("sans-serif", 12).into_font().transform(FontTransform::Rotate90))
            .y_desc(axes.y)
            .x_desc(axes.x)
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(plot_error)?;
        let width = 0.8 / series.len().max(1) as f64;
        for (s, name) in series.iter().enumerate() {
            let c = colour(s);
            chart
                .draw_series(groups.iter().enumerate().filter_map(|(g, group)| {
                    group.values.get(s).map(|&(v, _)| {
                        let x0 = g as f64 + 0.1 + s as f64 * width;
                        Rectangle::new([(x0, 0.0), (x0 + width, v)], c.filled())
                    })
                }))
                .map_err(plot_error)?
                .label(*name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
            chart
                .draw_series(groups.iter().enumerate().filter_map(|(g, group)| {
                    group.values.get(s).filter(|v| v.1 > 0.0).map(|&(v, e)| {
                        let x = g as f64 + 0.1 + (s as f64 + 0.5) * width;
                        PathElement::new(vec![(x, v - e), (x, v + e)], BLACK.stroke_width(2))
                    })
                }))
                .map_err(plot_error)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(plot_error)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_pngs() {
        let axes = Axes { title: "test", x: "x", y: "y" };
        let series =
            vec![Series { label: "a".into(), points: (1..10).map(|i| (f64::from(i), f64::from(i * i))).collect() }];
        for png in [
            lines(&axes, &series, false).unwrap(),
            lines(&axes, &series, true).unwrap(),
            heatmap(&axes, (2, 2), 0.0..1.0, 0.0..1.0, &[(0, 0, 1.0), (1, 1, 2.0)]).unwrap(),
            bars(&axes, &["one", "two"], &[Bars { label: "g".into(), values: vec![(1.0, 0.1), (2.0, 0.2)] }]).unwrap(),
        ] {
            assert_eq!(&png[1..4], b"PNG");
        }
    }
}
