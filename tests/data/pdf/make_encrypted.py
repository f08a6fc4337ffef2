"""Writes the encrypted PDFs beside this script, which the PDF reader's tests read.

plain.pdf holds two pages: a 24 x 16 gray image behind Flate, and an 8 x 4 indexed image whose
palette is a string (so that string decryption shows in its pixels). Each other file is plain.pdf
encrypted by qpdf (through pikepdf: `pip install pikepdf`) with the owner password "owner" and
the empty user password, or the user password "secret" where the name says "password". Run from
this folder; qpdf picks fresh salts and IVs, so the bytes differ from run to run.
"""
import zlib

import pikepdf
from pikepdf import Array, Dictionary, Encryption, Name, ObjectStreamMode, Pdf, Stream, String

pdf = Pdf.new()
w, h = 24, 16
gray = bytes((x * 10 + y * 3) % 256 for y in range(h) for x in range(w))
image = Stream(pdf, zlib.compress(gray), Type=Name.XObject, Subtype=Name.Image, Width=w, Height=h,
               ColorSpace=Name.DeviceGray, BitsPerComponent=8, Filter=Name.FlateDecode)
pdf.add_blank_page(page_size=(w, h))
pdf.pages[0].Resources = Dictionary(XObject=Dictionary(Im0=image))
pdf.pages[0].Contents = pdf.make_stream(b"q 24 0 0 16 0 0 cm /Im0 Do Q")
palette = bytes([255, 0, 0, 0, 128, 255, 10, 20, 30, 250, 250, 0])
iw, ih = 8, 4
indices = bytes((x + y) % 4 for y in range(ih) for x in range(iw))
indexed = Stream(pdf, indices, Type=Name.XObject, Subtype=Name.Image, Width=iw, Height=ih,
                 ColorSpace=Array([Name.Indexed, Name.DeviceRGB, 3, String(palette)]), BitsPerComponent=8)
pdf.add_blank_page(page_size=(iw, ih))
pdf.pages[1].Resources = Dictionary(XObject=Dictionary(Im0=indexed))
pdf.pages[1].Contents = pdf.make_stream(b"q 8 0 0 4 0 0 cm /Im0 Do Q")
pdf.docinfo[Name.Title] = "scoresheet encryption test"
pdf.save("plain.pdf", static_id=True)

# pikepdf encrypts the metadata only with AES, so the RC4 files leave it plain (metadata=False).
# The R4 and R6 files keep most objects in object streams, which are decrypted as streams.
cases = {
    "rc4-40.pdf": (Encryption(owner="owner", user="", R=2, aes=False, metadata=False), False),
    "rc4-128.pdf": (Encryption(owner="owner", user="", R=3, aes=False, metadata=False), False),
    "rc4-128-crypt-filters.pdf": (Encryption(owner="owner", user="", R=4, aes=False, metadata=False), True),
    "aes-128.pdf": (Encryption(owner="owner", user="", R=4, aes=True), True),
    "aes-256.pdf": (Encryption(owner="owner", user="", R=6), True),
    "aes-256-r5.pdf": (Encryption(owner="owner", user="", R=5), False),
    "rc4-128-password.pdf": (Encryption(owner="owner", user="secret", R=3, aes=False, metadata=False), False),
    "aes-256-password.pdf": (Encryption(owner="owner", user="secret", R=6), False),
}
for name, (encryption, object_streams) in cases.items():
    mode = ObjectStreamMode.generate if object_streams else ObjectStreamMode.disable
    Pdf.open("plain.pdf").save(name, encryption=encryption, object_stream_mode=mode, static_id=True,
                               compress_streams=False)
