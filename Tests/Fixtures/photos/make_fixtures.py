#!/usr/bin/env python3
"""Makes the small photos in this folder (generated here, not downloaded).

    pip install pillow piexif pillow-heif
    python3 Tests/Fixtures/photos/make_fixtures.py

Every file carries metadata that ImageFile.strippingMetadata must remove: the camera make
"ForkcastTestCam", GPS latitude 52 deg 22' 45.67" N and longitude 4 deg 53' 12.34" E, XMP with
"ForkcastTestXMP", text chunks with "ForkcastTestText", a JPEG comment "ForkcastTestComment" and IPTC
"ForkcastIPTC". photo.jpg also has Orientation 6 (must survive stripping), an APP2 ICC_PROFILE block
"ForkcastKeptICC" (must be kept) and a 16x12 EXIF IFD1 thumbnail. The pixels are a plain gradient.
"""
import io
import os
import struct

import piexif
import pillow_heif
from PIL import Image, PngImagePlugin

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE = b"ForkcastTestCam"
LAT = ((52, 1), (22, 1), (4567, 100))
LON = ((4, 1), (53, 1), (1234, 100))
XMP = (b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>'
       b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
       b'<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="ForkcastTestXMP"/>'
       b'</rdf:RDF></x:xmpmeta><?xpacket end="w"?>')


def gradient(width, height):
    image = Image.new("RGB", (width, height))
    image.putdata([(x * 255 // width, y * 255 // height, 128) for y in range(height) for x in range(width)])
    return image


def exif_bytes(thumbnail=None, orientation=None):
    exif = {
        "0th": {piexif.ImageIFD.Make: MAKE, piexif.ImageIFD.Model: b"Model F1",
                piexif.ImageIFD.Software: b"make_fixtures.py"},
        "Exif": {piexif.ExifIFD.DateTimeOriginal: b"2024:05:06 12:34:56"},
        "GPS": {piexif.GPSIFD.GPSLatitudeRef: b"N", piexif.GPSIFD.GPSLatitude: LAT,
                piexif.GPSIFD.GPSLongitudeRef: b"E", piexif.GPSIFD.GPSLongitude: LON},
        "1st": {}, "thumbnail": None,
    }
    if orientation is not None:
        exif["0th"][piexif.ImageIFD.Orientation] = orientation
    if thumbnail is not None:
        exif["1st"] = {piexif.ImageIFD.Compression: 6, piexif.ImageIFD.XResolution: (72, 1),
                       piexif.ImageIFD.YResolution: (72, 1), piexif.ImageIFD.ResolutionUnit: 2}
        exif["thumbnail"] = thumbnail
    return piexif.dump(exif)


def app_segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def make_jpeg():
    thumb = io.BytesIO()
    gradient(16, 12).save(thumb, "JPEG", quality=70)
    out = io.BytesIO()
    # A tiny stand-in for a colour profile (APP2 ICC_PROFILE must be kept: it changes colours).
    icc = b"ForkcastKeptICC-not-a-real-profile"
    gradient(64, 48).save(out, "JPEG", quality=80, exif=exif_bytes(thumb.getvalue(), orientation=6),
                          comment=b"ForkcastTestComment", icc_profile=icc)
    data = out.getvalue()
    # Add XMP (APP1) and an IPTC block (APP13 Photoshop 3.0) right after SOI.
    xmp = app_segment(0xE1, b"http://ns.adobe.com/xap/1.0/\x00" + XMP)
    iptc = app_segment(0xED, b"Photoshop 3.0\x00" + b"8BIM\x04\x04\x00\x00" + struct.pack(">I", 19)
                       + b"\x1c\x02\x50\x00\x0eForkcastIPTC!!" + b"\x00")
    assert data[2:4] == b"\xff\xe0"  # JFIF APP0 first, as Pillow writes it
    after_jfif = 4 + int.from_bytes(data[4:6], "big")
    data = data[:after_jfif] + xmp + iptc + data[after_jfif:]
    write("photo.jpg", data)
    write("thumbnail-source.jpg", thumb.getvalue())


def make_png():
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "ForkcastTestText tEXt")
    info.add_text("Description", "ForkcastTestText zTXt " * 8, zip=True)
    info.add_itxt("XML:com.adobe.xmp", XMP.decode("utf-8"))
    info.add(b"tIME", struct.pack(">HBBBBB", 2024, 5, 6, 12, 34, 56))
    out = io.BytesIO()
    gradient(40, 30).save(out, "PNG", pnginfo=info, exif=exif_bytes())
    write("photo.png", out.getvalue())
    # The same PNG under a JPEG name: judged by content, never by name.
    write("png-named-as.jpg", out.getvalue())


def make_webp():
    out = io.BytesIO()
    gradient(50, 30).save(out, "WEBP", quality=70, exif=exif_bytes(), xmp=XMP)
    write("photo.webp", out.getvalue())
    out = io.BytesIO()
    gradient(33, 21).save(out, "WEBP", lossless=True)
    write("lossless.webp", out.getvalue())
    out = io.BytesIO()
    gradient(47, 35).save(out, "WEBP", quality=60)
    write("simple.webp", out.getvalue())


def make_heic():
    pillow_heif.register_heif_opener()
    out = io.BytesIO()
    gradient(64, 48).save(out, "HEIF", quality=50, exif=exif_bytes(), xmp=XMP)
    write("photo.heic", out.getvalue())


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    make_jpeg()
    make_png()
    make_webp()
    make_heic()
