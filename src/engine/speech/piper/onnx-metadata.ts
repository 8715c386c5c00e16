/**
 * Adds `metadata_props` to an ONNX model without decoding it: the field (14, repeated
 * StringStringEntryProto) may appear anywhere in the top-level ModelProto, so entries appended
 * to the file's bytes are read as part of the model. sherpa-onnx learns a Piper voice's sample
 * rate, language and eSpeak voice from them.
 */

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** A length-delimited field: tag (field << 3 | 2), length, bytes. */
const lengthDelimited = (field: number, bytes: Buffer) => Buffer.concat([varint((field << 3) | 2), varint(bytes.length), bytes]);

export function withOnnxMetadata(model: Buffer, entries: Record<string, string | number>): Buffer {
  const props = Object.entries(entries).map(([key, value]) =>
    lengthDelimited(14, Buffer.concat([lengthDelimited(1, Buffer.from(key, 'utf8')), lengthDelimited(2, Buffer.from(String(value), 'utf8'))])),
  );
  return Buffer.concat([model, ...props]);
}
