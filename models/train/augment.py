"""Augmentation of raw grayscale cells (uint8, paper white, ink dark), applied before preprocessing.

Elastic distortion, slant, scale/offset jitter, stroke width, blur, noise, contrast, ink of the
neighbouring rows, border lines of neighbouring cells and crossed-out scribbles.
"""
import cv2
import numpy as np


def elastic(img, rng, alpha=None, grid=None):
    h, w = img.shape
    alpha = alpha if alpha is not None else rng.uniform(0.5, 2.5) * h / 40.0
    gh, gw = 3, max(3, w // max(h // 2, 1))
    dx = cv2.resize(rng.normal(0, 1, (gh, gw)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * alpha
    dy = cv2.resize(rng.normal(0, 1, (gh, gw)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * alpha
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(img, xs + dx, ys + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def affine(img, rng):
    h, w = img.shape
    shear = rng.uniform(-0.35, 0.35)
    sx = rng.uniform(0.85, 1.15)
    sy = sx * rng.uniform(0.9, 1.1)
    rot = np.deg2rad(rng.uniform(-3, 3))
    cx, cy = w / 2, h / 2
    a = np.array([[sx * np.cos(rot), -sx * np.sin(rot) + shear, 0], [sy * np.sin(rot), sy * np.cos(rot), 0]], np.float32)
    a[:, 2] = [cx - a[0, 0] * cx - a[0, 1] * cy + rng.uniform(-0.04, 0.04) * w,
               cy - a[1, 0] * cx - a[1, 1] * cy + rng.uniform(-0.08, 0.08) * h]
    return cv2.warpAffine(img, a, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def stroke(img, rng):
    k = np.ones((2, 2), np.uint8)
    if rng.random() < 0.5:
        return cv2.erode(img, k)   # thicker ink
    return cv2.dilate(img, k)      # thinner ink


def border_lines(img, rng):
    h, w = img.shape
    img = img.copy()
    dark = int(rng.uniform(0, 120))
    t = int(rng.integers(1, 3))
    for side in range(4):
        if rng.random() < 0.35:
            off = int(rng.uniform(0, 0.12) * (h if side < 2 else w))
            if side == 0:
                cv2.line(img, (0, off), (w, off + int(rng.integers(-2, 3))), dark, t)
            elif side == 1:
                cv2.line(img, (0, h - 1 - off), (w, h - 1 - off + int(rng.integers(-2, 3))), dark, t)
            elif side == 2:
                cv2.line(img, (off, 0), (off + int(rng.integers(-2, 3)), h), dark, t)
            else:
                cv2.line(img, (w - 1 - off, 0), (w - 1 - off + int(rng.integers(-2, 3)), h), dark, t)
    return img


def crossed_out(img, rng):
    """A short scribble crossed out, in a margin (the label stays the move that was kept)."""
    h, w = img.shape
    img = img.copy()
    sw = int(w * rng.uniform(0.12, 0.25))
    x0 = int(rng.choice([rng.uniform(0, 0.1), rng.uniform(0.75, 0.88)]) * w)
    y0, y1 = int(h * 0.2), int(h * 0.8)
    pts = np.stack([np.linspace(x0, x0 + sw, 6) + rng.normal(0, 2, 6), rng.uniform(y0, y1, 6)], 1).astype(np.int32)
    cv2.polylines(img, [pts], False, int(rng.uniform(0, 80)), int(rng.integers(1, 3)))
    ym = int(rng.uniform(0.35, 0.65) * h)
    cv2.line(img, (x0 - 2, ym), (x0 + sw + 2, ym + int(rng.integers(-4, 5))), int(rng.uniform(0, 80)), 2)
    return img


def photometric(img, rng):
    f = img.astype(np.float32)
    if rng.random() < 0.3:
        k = rng.choice([3, 5])
        f = cv2.GaussianBlur(f, (int(k), int(k)), rng.uniform(0.3, 1.2))
    lo, hi = rng.uniform(0, 90), rng.uniform(170, 255)
    f = lo + f * (hi - lo) / 255.0
    if rng.random() < 0.5:
        f += rng.normal(0, rng.uniform(2, 14), f.shape)
    if rng.random() < 0.3:  # uneven lighting
        h, w = f.shape
        g = np.linspace(rng.uniform(-30, 0), rng.uniform(0, 30), w, dtype=np.float32)[None, :]
        f += g
    return np.clip(f, 0, 255).astype(np.uint8)


def crop_jitter(img, rng):
    h, w = img.shape
    t, b = int(rng.uniform(-0.1, 0.1) * h), int(rng.uniform(-0.1, 0.1) * h)
    l, r = int(rng.uniform(-0.05, 0.08) * w), int(rng.uniform(-0.05, 0.08) * w)
    pad = max(0, -t, -b, -l, -r)
    if pad:
        img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    y0, y1 = pad + t, pad + h - b
    x0, x1 = pad + l, pad + w - r
    if y1 - y0 < 8 or x1 - x0 < 8:
        return img
    return img[y0:y1, x0:x1]


def neighbours(img, other, rng):
    """Ink of the cells above and below reaching into this one (large or slanted writing in the
    neighbouring rows): a slice of another cell's bottom pasted at the top and/or its top at the
    bottom, darkest pixel kept."""
    h, w = img.shape
    other = cv2.resize(other, (w, h), interpolation=cv2.INTER_AREA)
    img = img.copy()
    for side in (0, 1):
        if rng.random() < 0.6:
            k = int(h * rng.uniform(0.1, 0.3))
            if k < 2:
                continue
            shift = int(rng.uniform(-0.15, 0.15) * w)
            part = np.roll(other[h - k:] if side == 0 else other[:k], shift, axis=1)
            if side == 0:
                img[:k] = np.minimum(img[:k], part)
            else:
                img[h - k:] = np.minimum(img[h - k:], part)
    return img


def augment(img, rng, strength=1.0, other=None):
    if other is not None and rng.random() < 0.25 * strength:
        img = neighbours(img, other, rng)
    if rng.random() < 0.7 * strength:
        img = affine(img, rng)
    if rng.random() < 0.5 * strength:
        img = elastic(img, rng)
    if rng.random() < 0.3 * strength:
        img = stroke(img, rng)
    if rng.random() < 0.3 * strength:
        img = border_lines(img, rng)
    if rng.random() < 0.05 * strength:
        img = crossed_out(img, rng)
    if rng.random() < 0.5 * strength:
        img = crop_jitter(img, rng)
    if rng.random() < 0.8 * strength:
        img = photometric(img, rng)
    return img
