//! Compresses the handwriting models the binary carries (`models/*.int8.onnx`) with deflate into
//! `OUT_DIR`: they are built into the binary compressed (about 420 kB less) and inflated once,
//! when first loaded (`recognize::load_embedded`).

use std::path::Path;

/// The models built into the binary (`recognize::EMBEDDED_MODELS`).
const MODELS: [&str; 2] = ["recognizer.int8.onnx", "recognizer-b.int8.onnx"];

fn main() {
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    for name in MODELS {
        let src = Path::new("models").join(name);
        println!("cargo::rerun-if-changed={}", src.display());
        let bytes = std::fs::read(&src).unwrap_or_else(|e| panic!("cannot read {}: {e}", src.display()));
        let packed = miniz_oxide::deflate::compress_to_vec(&bytes, 10);
        let dest = Path::new(&out).join(format!("{name}.deflate"));
        std::fs::write(&dest, packed).unwrap_or_else(|e| panic!("cannot write {}: {e}", dest.display()));
    }
}
