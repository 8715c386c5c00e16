"""Writes a tiny Piper VITS voice for tests: a valid ONNX graph with a Piper model's inputs
(input, input_lengths, scales), its output (1 x 1 x samples) and the metadata sherpa-onnx reads,
plus the voice's .onnx.json. Each phoneme id becomes 256 samples of a tone: no download, no weights."""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out, name = sys.argv[1], sys.argv[2]
samples_per_id = 256

tiles = helper.make_tensor("tiles", TensorProto.INT64, [3], [1, 1, samples_per_id])
shape = helper.make_tensor("shape", TensorProto.INT64, [3], [1, 1, -1])
scale = helper.make_tensor("scale", TensorProto.FLOAT, [], [0.37])
amp = helper.make_tensor("amp", TensorProto.FLOAT, [], [0.3])
axes = helper.make_tensor("axes", TensorProto.INT64, [1], [2])
nodes = [
    helper.make_node("Cast", ["input"], ["ids"], to=TensorProto.FLOAT),
    helper.make_node("Unsqueeze", ["ids", "axes"], ["ids3"]),
    helper.make_node("Tile", ["ids3", "tiles"], ["tiled"]),
    helper.make_node("Reshape", ["tiled", "shape"], ["flat"]),
    helper.make_node("Mul", ["flat", "scale"], ["phase"]),
    helper.make_node("Sin", ["phase"], ["wave"]),
    helper.make_node("Mul", ["wave", "amp"], ["output"]),
]
graph = helper.make_graph(
    nodes,
    "piper-test",
    [
        helper.make_tensor_value_info("input", TensorProto.INT64, [1, "phonemes"]),
        helper.make_tensor_value_info("input_lengths", TensorProto.INT64, [1]),
        helper.make_tensor_value_info("scales", TensorProto.FLOAT, [3]),
    ],
    [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1, "samples"])],
    [tiles, shape, scale, amp, axes],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, f"{out}/{name}.onnx")

symbols = ["_", "^", "$", " ", "!", "'", "(", ")", ",", "-", ".", ":", ";", "?"]
symbols += list("abcdefghijklmnopqrstuvwxyz")
symbols += ["æ", "ç", "ð", "ø", "ħ", "ŋ", "œ", "ǀ", "ǁ", "ǂ", "ǃ", "ɐ", "ɑ", "ɒ", "ɓ", "ɔ", "ɕ", "ɖ", "ɗ", "ɘ", "ə", "ɚ", "ɛ", "ɜ", "ɞ", "ɟ", "ɠ", "ɡ", "ɢ", "ɣ", "ɤ", "ɥ", "ɦ", "ɧ", "ɨ", "ɪ", "ɫ", "ɬ", "ɭ", "ɮ", "ɯ", "ɰ", "ɱ", "ɲ", "ɳ", "ɴ", "ɵ", "ɶ", "ɸ", "ɹ", "ɺ", "ɻ", "ɽ", "ɾ", "ʀ", "ʁ", "ʂ", "ʃ", "ʄ", "ʈ", "ʉ", "ʊ", "ʋ", "ʌ", "ʍ", "ʎ", "ʏ", "ʐ", "ʑ", "ʒ", "ʔ", "ʕ", "ʘ", "ʙ", "ʛ", "ʜ", "ʝ", "ʟ", "ʡ", "ʢ", "ʲ", "ˈ", "ˌ", "ː", "ˑ", "˞", "β", "θ", "χ", "ᵻ", "ⱱ", "\u0303", "\u0329"]
config = {
    "audio": {"sample_rate": 16000, "quality": "x_low"},
    "espeak": {"voice": "en-us"},
    "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8},
    "phoneme_type": "espeak",
    "phoneme_id_map": {symbol: [index] for index, symbol in enumerate(symbols)},
    "num_symbols": len(symbols),
    "num_speakers": 1,
    "speaker_id_map": {},
    "language": {"code": "en_US", "family": "en", "region": "US", "name_english": "English"},
    "dataset": name,
    "piper_version": "1.0.0",
    "license": "CC0-1.0 (test voice)",
}
with open(f"{out}/{name}.onnx.json", "w", encoding="utf-8") as file:
    json.dump(config, file, ensure_ascii=False)
