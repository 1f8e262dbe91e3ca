"""Image assertions shared by the rendering tests."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image


def diff_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    if a.size != b.size:
        return (0, 0, max(a.width, b.width), max(a.height, b.height))
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()


def inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]
