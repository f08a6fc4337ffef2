//! The sheet of paper in a photo: where a phone photo shows the whole page on a darker table,
//! small in the frame and seen at an angle, the page's outline gives its four corners, and the
//! page straightened from them is analysed at the resolution the paper has in the photo.
//!
//! The outline is the largest bright region of the photo (Otsu's threshold on a small copy),
//! grown into a shadow across the page where one is brighter than the table, its convex hull (a
//! pen or a hand across the page leaves the hull whole) and the four-cornered
//! polygon of largest area inside that hull. A region that is no quadrilateral, touches the
//! frame or fills most of it (a scan) is no paper on a table.

use image::GrayImage;

use super::geom::{self, Homography};

/// Longest side of the small copy the outline is found in.
const OUTLINE_SIDE: u32 = 400;

/// Least difference of mean grey level between the paper and the table around it.
const LEAST_CONTRAST: f64 = 40.0;

/// The paper's share of the photo: at least this (smaller is no readable page)...
const LEAST_SHARE: f64 = 0.05;
/// ... and at most this (a page filling the frame needs no cropping).
const MOST_SHARE: f64 = 0.8;

/// The bright region must fill at least this share of its four-cornered outline (a pen across
/// the page takes a little), and the outline at least this share of the region's hull.
const LEAST_FILL: f64 = 0.85;

/// Corners of the paper in a photo, in input pixels: top left, top right, bottom right, bottom
/// left (the top edge is the more nearly horizontal edge at the top).
pub type Corners = [(f64, f64); 4];

/// The four corners of a sheet of paper lying whole inside the photo on a darker ground, or
/// `None` when the photo shows no such sheet.
pub fn find_paper(g: &GrayImage) -> Option<Corners> {
    let scale = (g.width().max(g.height()) / OUTLINE_SIDE).max(1);
    let small = box_mean(g, scale);
    let (w, h) = (small.width() as usize, small.height() as usize);
    if w < 16 || h < 16 {
        return None;
    }
    let threshold = imageproc::contrast::otsu_level(&small);
    let bright: Vec<bool> = small.as_raw().iter().map(|&v| v > threshold).collect();
    let contrast = mean_contrast(&small, &bright);
    if contrast < LEAST_CONTRAST {
        log::debug!("paper: none, {contrast:.0} grey levels between paper and table");
        return None;
    }
    let region = largest_region(&bright, w, h)?;
    // (the paper lies whole inside the frame: it does not reach the frame's edge; a scan's page
    // does, and is let go here, before the costlier steps)
    if region.iter().any(|&(x, y)| x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        log::debug!("paper: none, the brightest region reaches the photo's edge");
        return None;
    }
    // (a shadow across the page can be darker than Otsu's threshold and still far brighter than
    // the table: the outline of the region grown into it is tried first)
    // (the table's rulings enclose its cells: the holes of the paper's region are the paper's)
    let filled = with_holes_filled(&region, w, h);
    let quad = match grown_into_shade(&small, &region, &filled, threshold) {
        Some(grown) => outline(&grown, w, h).or_else(|| outline(&filled, w, h)),
        None => outline(&filled, w, h),
    }?;
    let to_input = |(x, y): (f64, f64)| ((x + 0.5) * scale as f64, (y + 0.5) * scale as f64);
    Some(top_left_first(quad).map(to_input))
}

/// The share of the way from the table's grey (at the frame's edge) up to Otsu's threshold that
/// a pixel must be brighter than to join the paper grown into its shade.
const SHADE_SHARE: f64 = 1.0 / 3.0;

/// The least step, in grey levels, between the table's grey and Otsu's threshold for the paper to
/// be grown into its shade: with less, shade and table are not told apart.
const LEAST_SHADE_STEP: f64 = 30.0;

/// The share of the frame's edge pixels darker than the table's grey taken for it: a bright spot
/// on the table's edge does not raise it.
const TABLE_GREY_RANK: f64 = 0.9;

/// The least growth into shade, in lengths of the bright region's outline (rings of a pixel round
/// it), for the grown outline to be taken: the paper's blurred edge, between paper and table,
/// adds a ring or two.
const LEAST_SHADE_GROWTH: f64 = 3.0;

/// `region` (the bright region; `filled`, the same with its holes filled) grown through the
/// 4-connected pixels of `small` brighter than a level between the table's grey, at the frame's
/// edge, and `threshold`: the paper in a shadow's shade, with its holes filled. `None` where the
/// growth adds under [`LEAST_SHADE_GROWTH`] or reaches the frame's edge (the table, not the
/// paper, is as bright).
fn grown_into_shade(
    small: &GrayImage,
    region: &[(usize, usize)],
    filled: &[(usize, usize)],
    threshold: u8,
) -> Option<Vec<(usize, usize)>> {
    let (w, h) = (small.width() as usize, small.height() as usize);
    let grey = small.as_raw();
    let mut edge: Vec<u8> = (0..w).flat_map(|x| [grey[x], grey[(h - 1) * w + x]]).collect();
    edge.extend((0..h).flat_map(|y| [grey[y * w], grey[y * w + w - 1]]));
    edge.sort_unstable();
    let table = f64::from(edge[((edge.len() - 1) as f64 * TABLE_GREY_RANK) as usize]);
    let step = f64::from(threshold) - table;
    if step < LEAST_SHADE_STEP {
        return None;
    }
    let level = (table + SHADE_SHARE * step).round() as u8;
    // (the region's pixels are all brighter than the threshold, so they lie in the mask)
    let lighter: Vec<bool> = grey.iter().map(|&v| v > level).collect();
    let starts: Vec<usize> = region.iter().map(|&(x, y)| y * w + x).collect();
    let grown = flood(&lighter, w, h, &mut vec![false; w * h], &starts);
    if grown.iter().any(|&(x, y)| x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        return None;
    }
    // (growth by the paper's blurred edge alone moves the outline out by a pixel or two of the
    // small copy all round; measured on the regions with their holes filled: the ink inside the
    // paper, joining where it is grey, is no growth)
    let grown_filled = with_holes_filled(&grown, w, h);
    let added = grown_filled.len().saturating_sub(filled.len());
    let rings = added as f64 / outline_length(filled, w, h).max(1) as f64;
    log::debug!("paper: grown into shade above grey {level} by {rings:.1} outline lengths");
    (rings >= LEAST_SHADE_GROWTH).then_some(grown_filled)
}

/// The number of the region's pixels with a 4-neighbour outside it: its outline's length.
fn outline_length(region: &[(usize, usize)], w: usize, h: usize) -> usize {
    let mut inside = vec![false; w * h];
    for &(x, y) in region {
        inside[y * w + x] = true;
    }
    let outside = |x: usize, y: usize| x >= w || y >= h || !inside[y * w + x];
    region
        .iter()
        .filter(|&&(x, y)| {
            x == 0 || y == 0 || outside(x - 1, y) || outside(x + 1, y) || outside(x, y - 1) || outside(x, y + 1)
        })
        .count()
}

/// The four corners of the page whose bright region, its holes filled (in the small copy, `w` x
/// `h`, off its edge), is `region`, in the small copy's pixels; `None` where it covers too little
/// or too much of the photo, or is no quadrilateral.
fn outline(region: &[(usize, usize)], w: usize, h: usize) -> Option<[(f64, f64); 4]> {
    let share = region.len() as f64 / (w * h) as f64;
    if !(LEAST_SHARE..=MOST_SHARE).contains(&share) {
        log::debug!("paper: none, the brightest region covers {:.0} % of the photo", 100.0 * share);
        return None;
    }
    let hull = convex_hull(&row_ends(&region));
    let quad = largest_quadrilateral(&hull)?;
    let (quad_area, hull_area) = (polygon_area(&quad), polygon_area(&hull));
    if (region.len() as f64) < LEAST_FILL * quad_area || quad_area < LEAST_FILL * hull_area {
        log::debug!(
            "paper: none, no quadrilateral: region {} px, outline {quad_area:.0} px, hull {hull_area:.0} px",
            region.len()
        );
        return None;
    }
    // (a shadow across a corner takes the corner out of the bright region: the corner is where
    // the two straight sides beside it meet)
    match corners_of_straight_sides(&hull) {
        Some(sides) if cuts_a_corner(&quad, &sides, &hull) => {
            log::debug!("paper: a corner cut off the bright region, outline {quad:?} -> {sides:?}");
            Some(sides)
        }
        _ => Some(quad),
    }
}

/// Hull edges whose direction is within this many degrees of a side's make one straight side.
const SIDE_BEND_DEG: f64 = 8.0;

/// Hull edges shorter than this (pixels) join a straight side whatever their direction: a
/// rasterized corner's steps.
const SHORT_EDGE: f64 = 4.0;

/// A straight side of the hull: its consecutive edges along one direction.
#[derive(Clone, Copy, Debug)]
struct StraightSide {
    from: (f64, f64),
    to: (f64, f64),
}

impl StraightSide {
    fn length(&self) -> f64 {
        (self.to.0 - self.from.0).hypot(self.to.1 - self.from.1)
    }
    fn direction_deg(&self) -> f64 {
        (self.to.1 - self.from.1).atan2(self.to.0 - self.from.0).to_degrees()
    }
}

/// The angle between two directions, in degrees (0 to 180).
fn angle_between_deg(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// The hull's outline as straight sides, in the hull's order: an edge joins the side before it
/// where both the edge (unless a few pixels short) and the side extended by it run within
/// [`SIDE_BEND_DEG`] of the side's direction.
fn straight_sides(hull: &[(f64, f64)]) -> Vec<StraightSide> {
    let n = hull.len();
    if n < 3 {
        return Vec::new();
    }
    let edge_direction = |i: usize| {
        let (a, b) = (hull[i], hull[(i + 1) % n]);
        (b.1 - a.1).atan2(b.0 - a.0).to_degrees()
    };
    // (start where the outline turns most, so that no side runs past the start)
    let turn = |i: usize| angle_between_deg(edge_direction((i + n - 1) % n), edge_direction(i));
    let start = (0..n).max_by(|&a, &b| turn(a).total_cmp(&turn(b))).unwrap_or(0);
    let mut sides: Vec<StraightSide> = Vec::new();
    let mut current = StraightSide { from: hull[start], to: hull[(start + 1) % n] };
    for step in 1..n {
        let i = (start + step) % n;
        let edge = StraightSide { from: hull[i], to: hull[(i + 1) % n] };
        let extended = StraightSide { from: current.from, to: edge.to };
        let along = current.direction_deg();
        let edge_along = edge.length() < SHORT_EDGE || angle_between_deg(edge.direction_deg(), along) <= SIDE_BEND_DEG;
        if edge_along && angle_between_deg(extended.direction_deg(), along) <= SIDE_BEND_DEG {
            current = extended;
        } else {
            sides.push(current);
            current = edge;
        }
    }
    sides.push(current);
    sides
}

/// Where the lines through two sides meet (`None` for parallel sides).
fn intersection(a: &StraightSide, b: &StraightSide) -> Option<(f64, f64)> {
    let (d1, d2) = ((a.to.0 - a.from.0, a.to.1 - a.from.1), (b.to.0 - b.from.0, b.to.1 - b.from.1));
    let cross = d1.0 * d2.1 - d1.1 * d2.0;
    if cross.abs() < 1e-9 {
        return None;
    }
    let t = ((b.from.0 - a.from.0) * d2.1 - (b.from.1 - a.from.1) * d2.0) / cross;
    Some((a.from.0 + t * d1.0, a.from.1 + t * d1.1))
}

/// The corners where the hull's four longest straight sides meet, in the hull's order: the
/// paper's outline with any corner a shadow cut off put back. `None` where two neighbouring
/// sides of the four are within 30 degrees of one direction.
fn corners_of_straight_sides(hull: &[(f64, f64)]) -> Option<[(f64, f64); 4]> {
    let sides = straight_sides(hull);
    if sides.len() < 4 {
        return None;
    }
    let mut longest: Vec<usize> = (0..sides.len()).collect();
    crate::sort::by_key_descending(&mut longest, |&i| sides[i].length());
    longest.truncate(4);
    longest.sort_unstable();
    let four = [sides[longest[0]], sides[longest[1]], sides[longest[2]], sides[longest[3]]];
    let mut corners = [(0.0, 0.0); 4];
    for i in 0..4 {
        let (a, b) = (&four[i], &four[(i + 1) % 4]);
        let bend = angle_between_deg(a.direction_deg(), b.direction_deg());
        if !(30.0..=150.0).contains(&bend) {
            return None;
        }
        corners[i] = intersection(a, b)?;
    }
    Some(corners)
}

/// Whether the outline `sides` puts back a corner the largest quadrilateral `quad` of the hull
/// cuts off: exactly one of its corners lies more than 3 % of the hull's diagonal from every
/// corner of `quad`, it is convex, it holds the whole hull (within 1 % of the hull's diagonal),
/// and it adds no more than a third of the hull's area (a corner's triangle).
fn cuts_a_corner(quad: &[(f64, f64); 4], sides: &[(f64, f64); 4], hull: &[(f64, f64)]) -> bool {
    let (min_x, max_x) = hull.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (min_y, max_y) = hull.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let diagonal = (max_x - min_x).hypot(max_y - min_y);
    let distance = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
    // (one corner put back, the other three where they were: a side gone astray moves two)
    let moved = sides.iter().filter(|&&c| quad.iter().all(|&q| distance(c, q) > 0.03 * diagonal)).count();
    let hull_area = polygon_area(hull);
    // (within 1 % of the diagonal: a side's line runs through its end vertices, and the pixel
    // steps of a rasterized side stand out of it by a pixel or two)
    let holds_hull = hull.iter().all(|&p| inside_or_near(sides, p, (0.01 * diagonal).max(2.0)));
    moved == 1 && is_convex(sides) && holds_hull && polygon_area(sides) <= 1.34 * hull_area
}

/// Whether the quadrilateral turns the same way at each corner (convex, not crossing itself).
fn is_convex(quad: &[(f64, f64); 4]) -> bool {
    let turn = |i: usize| {
        let (a, b, c) = (quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]);
        (b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0)
    };
    let turns = [turn(0), turn(1), turn(2), turn(3)];
    turns.iter().all(|&t| t > 0.0) || turns.iter().all(|&t| t < 0.0)
}

/// Whether `p` lies inside the convex quadrilateral `quad` or within `margin` of it.
fn inside_or_near(quad: &[(f64, f64); 4], p: (f64, f64), margin: f64) -> bool {
    // (signed distances to each side, all of one sign inside)
    let signed: Vec<f64> = (0..4)
        .map(|i| {
            let (a, b) = (quad[i], quad[(i + 1) % 4]);
            let length = (b.0 - a.0).hypot(b.1 - a.1).max(1e-9);
            ((b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)) / length
        })
        .collect();
    signed.iter().all(|&d| d >= -margin) || signed.iter().all(|&d| d <= margin)
}

/// The paper cut out of `g` and straightened to a rectangle as long and wide as its edges are in
/// the photo, a little inside its outline (the table's edge left out), with the transform from
/// input pixels to the straightened paper's.
pub fn straighten(g: &GrayImage, corners: &Corners) -> Option<(GrayImage, Homography)> {
    let dist = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let [top_left, top_right, bottom_right, bottom_left] = *corners;
    let width = 0.5 * (dist(top_left, top_right) + dist(bottom_left, bottom_right));
    let height = 0.5 * (dist(top_left, bottom_left) + dist(top_right, bottom_right));
    // (1 % of each side inside the outline)
    let (inset_x, inset_y) = (0.01 * width, 0.01 * height);
    let rect = [
        (-inset_x, -inset_y),
        (width - inset_x, -inset_y),
        (width - inset_x, height - inset_y),
        (-inset_x, height - inset_y),
    ];
    let to_paper = Homography::from_points(corners, &rect)?;
    let from_paper = to_paper.inverse()?;
    let (out_w, out_h) = ((width - 2.0 * inset_x).round() as u32, (height - 2.0 * inset_y).round() as u32);
    if out_w < 32 || out_h < 32 {
        return None;
    }
    Some((geom::warp_gray(g, &from_paper, out_w, out_h), to_paper))
}

/// `g` reduced by `scale`: each pixel the mean of its `scale` x `scale` box (what
/// `lines::downscale` gives first, without the copy for rulings it makes beside).
fn box_mean(g: &GrayImage, scale: u32) -> GrayImage {
    let (w, h) = (g.width() / scale, g.height() / scale);
    let (src, src_w, k) = (g.as_raw(), g.width() as usize, scale as usize);
    let mut sums = vec![0u32; w as usize];
    let mut out = Vec::with_capacity((w * h) as usize);
    for y in 0..h as usize {
        sums.iter_mut().for_each(|s| *s = 0);
        for row in src[y * k * src_w..].chunks(src_w).take(k) {
            for (sum, box_row) in sums.iter_mut().zip(row.chunks_exact(k)) {
                *sum += box_row.iter().map(|&v| v as u32).sum::<u32>();
            }
        }
        out.extend(sums.iter().map(|&s| (s / (k * k) as u32) as u8));
    }
    GrayImage::from_raw(w, h, out).expect("size matches")
}

/// Mean grey level of the bright pixels minus that of the dark ones.
fn mean_contrast(g: &GrayImage, bright: &[bool]) -> f64 {
    let (mut sums, mut counts) = ([0.0f64; 2], [0u64; 2]);
    for (&v, &b) in g.as_raw().iter().zip(bright) {
        sums[b as usize] += v as f64;
        counts[b as usize] += 1;
    }
    if counts[0] == 0 || counts[1] == 0 {
        return 0.0;
    }
    sums[1] / counts[1] as f64 - sums[0] / counts[0] as f64
}

/// The pixels of the largest 4-connected region of `mask`.
fn largest_region(mask: &[bool], w: usize, h: usize) -> Option<Vec<(usize, usize)>> {
    let mut seen = vec![false; w * h];
    let mut best: Vec<(usize, usize)> = Vec::new();
    for start in 0..w * h {
        if !mask[start] || seen[start] {
            continue;
        }
        let region = flood(mask, w, h, &mut seen, &[start]);
        if region.len() > best.len() {
            best = region;
        }
    }
    (!best.is_empty()).then_some(best)
}

/// The pixels of `mask` 4-connected to the pixel indexes `starts` (which are in it), the starts
/// included; each pixel reached is marked in `seen` (pixels already marked are not entered).
fn flood(mask: &[bool], w: usize, h: usize, seen: &mut [bool], starts: &[usize]) -> Vec<(usize, usize)> {
    let mut region = Vec::new();
    let mut stack: Vec<usize> = starts.to_vec();
    for &i in starts {
        seen[i] = true;
    }
    while let Some(i) = stack.pop() {
        let (x, y) = (i % w, i / w);
        region.push((x, y));
        let neighbours =
            [(x > 0).then(|| i - 1), (x + 1 < w).then(|| i + 1), (y > 0).then(|| i - w), (y + 1 < h).then(|| i + w)];
        for j in neighbours.into_iter().flatten() {
            if mask[j] && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    region
}

/// The region with every hole in it filled: the pixels not reachable from the frame's edge
/// without crossing it.
fn with_holes_filled(region: &[(usize, usize)], w: usize, h: usize) -> Vec<(usize, usize)> {
    let mut inside = vec![false; w * h];
    for &(x, y) in region {
        inside[y * w + x] = true;
    }
    let mut outside = vec![false; w * h];
    let mut stack: Vec<usize> =
        (0..w).flat_map(|x| [x, (h - 1) * w + x]).chain((0..h).flat_map(|y| [y * w, y * w + w - 1])).collect();
    while let Some(i) = stack.pop() {
        if inside[i] || outside[i] {
            continue;
        }
        outside[i] = true;
        let (x, y) = (i % w, i / w);
        if x > 0 {
            stack.push(i - 1);
        }
        if x + 1 < w {
            stack.push(i + 1);
        }
        if y > 0 {
            stack.push(i - w);
        }
        if y + 1 < h {
            stack.push(i + w);
        }
    }
    (0..w * h).filter(|&i| !outside[i]).map(|i| (i % w, i / w)).collect()
}

/// The leftmost and rightmost pixel of the region on each of its rows (its hull's candidates).
fn row_ends(region: &[(usize, usize)]) -> Vec<(f64, f64)> {
    let mut ends: std::collections::BTreeMap<usize, (usize, usize)> = std::collections::BTreeMap::new();
    for &(x, y) in region {
        let e = ends.entry(y).or_insert((x, x));
        e.0 = e.0.min(x);
        e.1 = e.1.max(x);
    }
    ends.into_iter().flat_map(|(y, (x0, x1))| [(x0 as f64, y as f64), (x1 as f64, y as f64)]).collect()
}

/// Convex hull (Andrew's monotone chain), clockwise on screen (y down), no collinear points.
fn convex_hull(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut pts = points.to_vec();
    // (points the order holds equal are the same bits: any sort gives the one order)
    pts.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let turn = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let mut hull: Vec<(f64, f64)> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &(f64, f64)>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for &p in ordered {
            while hull.len() >= start + 2 && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Area of a simple polygon (shoelace formula).
fn polygon_area(polygon: &[(f64, f64)]) -> f64 {
    let n = polygon.len();
    let twice: f64 = (0..n)
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    0.5 * twice.abs()
}

/// The four hull vertices spanning the largest quadrilateral, in the hull's order. For each
/// diagonal the best vertex on either side is the one farthest from it.
fn largest_quadrilateral(hull: &[(f64, f64)]) -> Option<[(f64, f64); 4]> {
    let n = hull.len();
    if n < 4 {
        return None;
    }
    // (twice the signed area of the triangle a b c, positive on one side of a -> b)
    let tri =
        |a: (f64, f64), b: (f64, f64), c: (f64, f64)| ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)).abs();
    let mut best: Option<(f64, [usize; 4])> = None;
    for i in 0..n {
        for k in i + 2..n {
            if i == 0 && k == n - 1 {
                continue;
            }
            let one_side =
                (i + 1..k).max_by(|&p, &q| tri(hull[i], hull[k], hull[p]).total_cmp(&tri(hull[i], hull[k], hull[q])));
            let other_side = (k + 1..n + i)
                .map(|j| j % n)
                .max_by(|&p, &q| tri(hull[i], hull[k], hull[p]).total_cmp(&tri(hull[i], hull[k], hull[q])));
            let (Some(j), Some(l)) = (one_side, other_side) else { continue };
            let area = tri(hull[i], hull[k], hull[j]) + tri(hull[i], hull[k], hull[l]);
            if best.is_none_or(|(b, _)| area > b) {
                best = Some((area, [i, j, k, l]));
            }
        }
    }
    best.map(|(_, idx)| idx.map(|i| hull[i]))
}

/// The quadrilateral's corners (in order around it) starting at the top left: the edge from the
/// first to the second corner is the top one, of the two edges more nearly horizontal than
/// vertical the one higher up; the corners run clockwise on screen.
fn top_left_first(mut quad: [(f64, f64); 4]) -> Corners {
    // clockwise on screen (y down) means a positive shoelace sum
    let signed: f64 = (0..4).map(|i| quad[i].0 * quad[(i + 1) % 4].1 - quad[(i + 1) % 4].0 * quad[i].1).sum();
    if signed < 0.0 {
        quad.reverse();
    }
    let horizontalness = |i: usize| {
        let (a, b) = (quad[i], quad[(i + 1) % 4]);
        (b.0 - a.0).abs() - (b.1 - a.1).abs()
    };
    let mid_y = |i: usize| 0.5 * (quad[i].1 + quad[(i + 1) % 4].1);
    // (opposite edges 0-2 and 1-3: the pair more nearly horizontal, then its upper edge)
    let pair = if horizontalness(0) + horizontalness(2) >= horizontalness(1) + horizontalness(3) { 0 } else { 1 };
    let top = if mid_y(pair) <= mid_y(pair + 2) { pair } else { pair + 2 };
    [quad[top], quad[(top + 1) % 4], quad[(top + 2) % 4], quad[(top + 3) % 4]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A dark photo with a bright quadrilateral `corners` (clockwise from top left) on it.
    fn photo_with_paper(w: u32, h: u32, corners: [(f64, f64); 4]) -> GrayImage {
        let inside = |x: f64, y: f64| {
            (0..4).all(|i| {
                let (a, b) = (corners[i], corners[(i + 1) % 4]);
                (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0) >= 0.0
            })
        };
        GrayImage::from_fn(w, h, |x, y| Luma([if inside(x as f64 + 0.5, y as f64 + 0.5) { 200 } else { 40 }]))
    }

    #[test]
    fn a_turned_page_on_a_dark_table_gives_its_corners_top_left_first() {
        let corners = [(300.0, 120.0), (700.0, 260.0), (560.0, 660.0), (160.0, 520.0)];
        let photo = photo_with_paper(900, 800, corners);
        let found = find_paper(&photo).expect("the page is found");
        for (f, c) in found.iter().zip(&corners) {
            assert!((f.0 - c.0).abs() < 6.0 && (f.1 - c.1).abs() < 6.0, "{found:?} against {corners:?}");
        }
    }

    #[test]
    fn a_page_seen_at_an_angle_straightens_to_a_rectangle() {
        let corners = [(250.0, 100.0), (650.0, 140.0), (760.0, 700.0), (120.0, 640.0)];
        let photo = photo_with_paper(900, 800, corners);
        let found = find_paper(&photo).expect("the page is found");
        let (paper, to_paper) = straighten(&photo, &found).expect("straightened");
        // every pixel of the straightened paper is paper
        assert!(paper.pixels().all(|p| p.0[0] > 150), "table inside the straightened page");
        let (x, y) = to_paper.apply(250.0, 100.0);
        assert!(x.abs() < 10.0 && y.abs() < 10.0, "top left corner maps to the origin: {x} {y}");
    }

    #[test]
    fn a_corner_in_a_shadow_is_where_its_two_sides_meet() {
        let corners = [(250.0, 100.0), (650.0, 140.0), (700.0, 700.0), (180.0, 660.0)];
        let mut photo = photo_with_paper(900, 800, corners);
        // (a shadow as dark as the table over the lower left corner, its edge curved)
        for (x, y, pixel) in photo.enumerate_pixels_mut() {
            let (dx, dy) = (x as f64 - 150.0, y as f64 - 720.0);
            if dx * dx + dy * dy < 170.0 * 170.0 {
                pixel.0[0] = 45;
            }
        }
        let found = find_paper(&photo).expect("the page is found");
        for (f, c) in found.iter().zip(&corners) {
            assert!((f.0 - c.0).abs() < 8.0 && (f.1 - c.1).abs() < 8.0, "{found:?} against {corners:?}");
        }
    }

    #[test]
    fn a_page_in_a_shadow_across_its_right_part_is_found_whole() {
        // (the shade, grey 110 over a third of the page, is darker than Otsu's threshold between
        // it and the lit paper, and still far brighter than the table, grey 40)
        let corners = [(250.0, 100.0), (650.0, 140.0), (700.0, 700.0), (180.0, 660.0)];
        let mut photo = photo_with_paper(900, 800, corners);
        for (x, y, pixel) in photo.enumerate_pixels_mut() {
            if pixel.0[0] > 100 && x as f64 > 300.0 + 0.5 * y as f64 {
                pixel.0[0] = 110;
            }
        }
        let found = find_paper(&photo).expect("the page is found");
        for (f, c) in found.iter().zip(&corners) {
            assert!((f.0 - c.0).abs() < 8.0 && (f.1 - c.1).abs() < 8.0, "{found:?} against {corners:?}");
        }
    }

    #[test]
    fn a_quadrilateral_crossing_itself_is_not_convex() {
        assert!(is_convex(&[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]));
        assert!(is_convex(&[(0.0, 10.0), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0)]));
        assert!(!is_convex(&[(0.0, 0.0), (10.0, 10.0), (10.0, 0.0), (0.0, 10.0)]));
    }

    #[test]
    fn an_outline_that_moves_two_corners_puts_back_none() {
        // (seed 9997 sheet 21, federation-pt photo: a shadow over the lower right cuts most of the
        // bottom side, and the four longest sides are the top, the right's upper part, the
        // shadow's edge and the left)
        let quad = [(31.0, 27.0), (270.0, 30.0), (261.0, 249.0), (15.0, 375.0)];
        let sides = [(269.0, 237.0), (4.5, 568.8), (31.0, 27.0), (270.0, 30.0)];
        let hull = [(31.0, 27.0), (270.0, 30.0), (268.0, 240.0), (261.0, 249.0), (40.0, 372.0), (15.0, 375.0)];
        assert!(!cuts_a_corner(&quad, &sides, &hull));
    }

    #[test]
    fn a_scan_filling_the_frame_is_no_paper_on_a_table() {
        let scan = GrayImage::from_fn(600, 800, |x, y| {
            Luma([if (5..595).contains(&x) && (5..795).contains(&y) { 220 } else { 30 }])
        });
        assert!(find_paper(&scan).is_none());
    }

    #[test]
    fn a_bright_round_spot_is_no_paper() {
        let spot = GrayImage::from_fn(800, 800, |x, y| {
            let r2 = (x as f64 - 400.0).powi(2) + (y as f64 - 400.0).powi(2);
            Luma([if r2 < 200.0 * 200.0 { 210 } else { 30 }])
        });
        assert!(find_paper(&spot).is_none());
    }
}
