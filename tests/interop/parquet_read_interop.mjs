// Interop of dlbench's Parquet reader with files other implementations wrote. hyparquet-writer
// (npm, pure JavaScript, installed into the build tree by the fixture interop.parquet_setup)
// writes them the way pyarrow writes MLCommons DLIO's — nullable columns, LISTs of nullable
// elements, dictionary pages with RLE_DICTIONARY data pages, snappy, no offset index — and with
// variations: PLAIN pages, uncompressed, required columns, an offset index, a one-entry dictionary
// (bit width 0); its data pages are v2. parquet-wasm (npm: Apache arrow-rs, the Rust Arrow
// implementation's Parquet writer, compiled to WebAssembly; tables built with apache-arrow) writes
// what the Arrow family writes by default: data pages v1, dictionary pages falling back to PLAIN
// once the dictionary page limit is reached, statistics, Arrow FixedSizeLists as LISTs of nullable
// elements; with offset indexes, which arrow-rs always writes (pyarrow's v1 pages cut inside rows
// without one are built in the unit tests, tests/unit/formats/parquet_foreign_test.cpp).
//
//   node parquet_read_interop.mjs <interop_tool> <folder with node_modules> <scratch folder>
//                                 [<dlbench> <tiny_train.yaml>]
//
// The values are a function of (column, row, element) computed here; interop_tool reads every
// sample with dlbench's reader and prints its FNV-1a 64, which must equal that of the sample bytes
// this script expects (each column's values, little-endian in the column's dtype, back to back).
// With dlbench and a training workload, a dataset of such files (DLIO's names, no dlbench marker)
// is trained on for two epochs: every sample read, none skipped, the decoded bytes exact.
// The file's layout is checked too (dictionary pages, codec, no offset index), so a writer that
// changed its defaults cannot make the test pass without testing what it says. Prints
// "parquet_read_interop: OK" or the mismatches.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { check, finish, half, interopArgs } from './parquet_interop_support.mjs'

const { tool, scratch, rest: [dlbench, trainYaml], require, load } = interopArgs()
const { parquetWriteBuffer } = await load('hyparquet-writer')
const { parquetMetadata } = await load('hyparquet')
const arrow = require('apache-arrow')
const pw = require('parquet-wasm')

const itemsize = { int8: 1, int16: 2, uint64: 8, float16: 2, float32: 4 }

// Element e of row r of column c: its value for the writer and its bytes for the sample.
function value(c, r, e) {
  let k = r * c.size + e
  if (c.cardinality) k %= c.cardinality
  const bytes = Buffer.alloc(itemsize[c.dtype])
  switch (c.dtype) {
    case 'float32': {
      const v = ((k * 7919) % 1000003) / 64 - 7000  // exact in float32
      bytes.writeFloatLE(v)
      return { v, bytes }
    }
    case 'int8': {
      const v = ((k * 37) % 256) - 128
      bytes.writeInt8(v)
      return { v, bytes }
    }
    case 'int16': {
      const v = ((k * 4099) % 65536) - 32768
      bytes.writeInt16LE(v)
      return { v, bytes }
    }
    case 'float16': {
      const bits = (k * 97 + 1) % 0x7c00  // finite, positive
      bytes.writeUInt16LE(bits)
      return { v: half(bits), bytes }
    }
    case 'uint64': {
      const v = (BigInt(k) * 0x9E3779B97F4A7C15n + 12345n) % (1n << 64n)
      bytes.writeBigUInt64LE(v)
      return { v, bytes }
    }
  }
  throw new Error('dtype ' + c.dtype)
}

const leaf = {
  float32: { type: 'FLOAT' },
  int8: { type: 'INT32', converted_type: 'INT_8', logical_type: { type: 'INTEGER', bitWidth: 8, isSigned: true } },
  int16: { type: 'INT32', converted_type: 'INT_16', logical_type: { type: 'INTEGER', bitWidth: 16, isSigned: true } },
  float16: { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 2, logical_type: { type: 'FLOAT16' } },
  uint64: { type: 'INT64', converted_type: 'UINT_64', logical_type: { type: 'INTEGER', bitWidth: 64, isSigned: false } },
}

// pyarrow's schema of DLIO's table: size 1 a primitive, else a LIST (FixedSizeList on the Arrow
// side) of one element per value.
function schemaOf(columns, required) {
  const repetition_type = required ? 'REQUIRED' : 'OPTIONAL'
  const schema = [{ name: 'schema', num_children: columns.length }]
  for (const c of columns) {
    if (c.size === 1) {
      schema.push({ name: c.name, repetition_type, ...leaf[c.dtype] })
    } else {
      schema.push({ name: c.name, repetition_type, converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 })
      schema.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 })
      schema.push({ name: 'element', repetition_type, ...leaf[c.dtype] })
    }
  }
  return schema
}

function fnv1a(bytes) {
  let h = 0xcbf29ce484222325n
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn
  return h.toString(16).padStart(16, '0')
}

function writeFile(path, { columns, rows, rowGroupSize, codec, encoding, required, offsetIndex, pageSize }) {
  const columnData = columns.map(c => {
    const data = []
    for (let r = 0; r < rows; r++) {
      const values = []
      for (let e = 0; e < c.size; e++) values.push(value(c, r, e).v)
      data.push(c.size === 1 ? values[0] : values)
    }
    return { name: c.name, data, encoding: c.encoding ?? encoding, offsetIndex }
  })
  const buffer = parquetWriteBuffer({
    columnData, schema: schemaOf(columns, required), codec, rowGroupSize, pageSize, statistics: true,
  })
  writeFileSync(path, Buffer.from(buffer))
  return buffer
}

function runCase(name, options) {
  const { columns, rows, rowGroupSize, codec, encoding, offsetIndex } = options
  const path = join(scratch, name + '.parquet')
  const buffer = writeFile(path, options)

  // What the writer did, as hyparquet reads the footer.
  const metadata = parquetMetadata(buffer)
  check(metadata.row_groups.length === Math.ceil(rows / rowGroupSize),
    `${name}: ${metadata.row_groups.length} row groups`)
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const m = chunk.meta_data
      const spec = columns.find(c => c.name === m.path_in_schema[0])
      const wantDictionary = (spec.encoding ?? encoding) === 'RLE_DICTIONARY'
      check(m.codec === codec, `${name}: ${m.path_in_schema} codec ${m.codec}`)
      check((m.dictionary_page_offset !== undefined) === wantDictionary,
        `${name}: ${m.path_in_schema} dictionary page ${m.dictionary_page_offset}`)
      check(m.encodings.includes(wantDictionary ? 'RLE_DICTIONARY' : 'PLAIN'),
        `${name}: ${m.path_in_schema} encodings ${m.encodings}`)
      if (!offsetIndex) {
        check(chunk.offset_index_offset === undefined, `${name}: ${m.path_in_schema} has an offset index`)
      }
    }
  }

  readBack(name, path, columns, rows)
}

// interop_tool reads every sample of `path`; each must hash like the values written.
function readBack(name, path, columns, rows) {
  const args = ['read', 'parquet', path, 'uint8', String(rows)]
  for (const c of columns) args.push('--column', `${c.name}:${c.dtype}:${c.size}`)
  const lines = execFileSync(tool, args, { encoding: 'utf8' }).trim().split('\n')
  check(lines.length === rows, `${name}: interop_tool printed ${lines.length} samples, expected ${rows}`)
  let equal = 0
  for (let r = 0; r < rows; r++) {
    const bytes = Buffer.concat(columns.flatMap(c =>
      Array.from({ length: c.size }, (_, e) => value(c, r, e).bytes)))
    const want = `${r} ${fnv1a(bytes)}`
    if (lines[r] === want) equal++
    else check(false, `${name}: sample ${r} read as "${lines[r]}", wrote "${want}"`)
  }
  console.log(`${name}: ${equal} of ${rows} samples equal to the values written`)
}

const flux = [
  { name: 't5_encodings', dtype: 'float32', size: 300, cardinality: 700 },
  { name: 'clip_encodings', dtype: 'float32', size: 9, cardinality: 31 },
  { name: 'timestamp', dtype: 'float32', size: 1 },
  { name: 'tokens', dtype: 'int8', size: 5 },
  { name: 'half', dtype: 'float16', size: 3 },
  { name: 'id', dtype: 'uint64', size: 1, cardinality: 4 },
]

// pyarrow's defaults on DLIO's table: dictionary pages, snappy, nullable, no offset index;
// pages of about one row of t5_encodings.
runCase('dictionary_snappy', {
  columns: flux, rows: 12, rowGroupSize: 5, codec: 'SNAPPY', encoding: 'RLE_DICTIONARY',
  offsetIndex: false, pageSize: 1000,
})
// What pyarrow falls back to once a dictionary is too big, uncompressed as MLCommons DLIO
// writes (compression: none).
runCase('plain_uncompressed', {
  columns: flux, rows: 12, rowGroupSize: 7, codec: 'UNCOMPRESSED', encoding: 'PLAIN',
  offsetIndex: false, pageSize: 500,
})
runCase('dictionary_uncompressed_required', {
  columns: flux, rows: 9, rowGroupSize: 9, codec: 'UNCOMPRESSED', encoding: 'RLE_DICTIONARY',
  required: true, offsetIndex: false, pageSize: 700,
})
// Some chunks dictionary-encoded, the others PLAIN, with offset indexes (pyarrow's
// write_page_index=True).
runCase('mixed_offset_index', {
  columns: flux.map((c, i) => ({ ...c, encoding: i % 2 ? 'PLAIN' : 'RLE_DICTIONARY' })),
  rows: 11, rowGroupSize: 4, codec: 'SNAPPY', offsetIndex: true, pageSize: 600,
})
// One distinct value: a one-entry dictionary, indices of bit width 0.
runCase('one_entry_dictionary', {
  columns: [{ name: 'same', dtype: 'float32', size: 20, cardinality: 1 },
    { name: 'one', dtype: 'int16', size: 1, cardinality: 1 }],
  rows: 10, rowGroupSize: 10, codec: 'SNAPPY', encoding: 'RLE_DICTIONARY', offsetIndex: false,
  pageSize: 1 << 20,
})

// The same values through Arrow tables and arrow-rs.
const arrowType = {
  float32: () => new arrow.Float32(), int8: () => new arrow.Int8(), int16: () => new arrow.Int16(),
  float16: () => new arrow.Float16(), uint64: () => new arrow.Uint64(),
}
const typedArray = { float32: Float32Array, int8: Int8Array, int16: Int16Array, float16: Uint16Array,
  uint64: BigUint64Array }

// The encodings of each column chunk's data pages, from the footer's encoding_stats (which
// arrow-rs writes).
function dataPageEncodings(buffer) {
  const metadata = parquetMetadata(buffer)
  return metadata.row_groups.flatMap(g => g.columns.map(c => new Set(
    (c.meta_data.encoding_stats ?? []).filter(s => s.page_type.startsWith('DATA_PAGE'))
      .map(s => s.encoding))))
}

function runArrowCase(name, { columns, rows, rowGroupSize, codec, dictionary, dictionaryLimit,
  pageLimit, wantDictionary, wantPlain, wantFallback }) {
  const path = join(scratch, name + '.parquet')
  const vectors = {}
  for (const c of columns) {
    const flat = new typedArray[c.dtype](rows * c.size)
    for (let r = 0; r < rows; r++) {
      for (let e = 0; e < c.size; e++) {
        const bytes = value(c, r, e).bytes
        flat[r * c.size + e] = c.dtype === 'float16' ? bytes.readUInt16LE()
          : c.dtype === 'uint64' ? bytes.readBigUInt64LE()
            : value(c, r, e).v
      }
    }
    const child = arrow.makeData({ type: arrowType[c.dtype](), length: flat.length, data: flat })
    vectors[c.name] = arrow.makeVector(c.size === 1 ? child : arrow.makeData({
      type: new arrow.FixedSizeList(c.size, new arrow.Field('item', arrowType[c.dtype](), true)),
      length: rows, nullCount: 0, child,
    }))
  }
  const table = pw.Table.fromIPCStream(arrow.tableToIPC(new arrow.Table(vectors), 'stream'))
  const properties = new pw.WriterPropertiesBuilder()
    .setCompression(codec)
    .setDictionaryEnabled(dictionary)
    .setDictionaryPageSizeLimit(dictionaryLimit)
    .setDataPageSizeLimit(pageLimit)
    .setMaxRowGroupSize(rowGroupSize)
    .setWriterVersion(pw.WriterVersion.V1)
    .build()
  const bytes = pw.writeParquet(table, properties)
  writeFileSync(path, bytes)
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  const chunks = dataPageEncodings(buffer)
  const dictionaryEncoded = e => e.has('RLE_DICTIONARY') || e.has('PLAIN_DICTIONARY')
  const all = chunks.map(e => [...e].join('+')).join(', ')
  check(chunks.some(dictionaryEncoded) === wantDictionary, `${name}: data pages ${all}`)
  check(chunks.some(e => e.has('PLAIN')) === wantPlain, `${name}: data pages ${all}`)
  check(chunks.some(e => dictionaryEncoded(e) && e.has('PLAIN')) === wantFallback,
    `${name}: data pages ${all}`)
  readBack(name, path, columns, rows)
}

// arrow-rs's defaults scaled down: t5_encodings' dictionary (700 values, 2,800 bytes) outgrows a
// 1 KiB dictionary page limit, so its chunks hold a dictionary page, RLE_DICTIONARY pages, then
// PLAIN pages (pyarrow's fallback); pages of about 1 KiB.
runArrowCase('arrow_rs_dictionary_fallback_snappy', {
  columns: flux, rows: 12, rowGroupSize: 5, codec: pw.Compression.SNAPPY, dictionary: true,
  dictionaryLimit: 1024, pageLimit: 1024, wantDictionary: true, wantPlain: true, wantFallback: true,
})
runArrowCase('arrow_rs_dictionary_gzip', {
  columns: flux.map(c => ({ ...c, cardinality: c.cardinality ?? 50 })), rows: 10,
  rowGroupSize: 10, codec: pw.Compression.GZIP, dictionary: true, dictionaryLimit: 1 << 20,
  pageLimit: 1 << 20, wantDictionary: true, wantFallback: false,
  wantPlain: true,  // arrow-rs leaves FIXED_LEN_BYTE_ARRAY (half) PLAIN
})
runArrowCase('arrow_rs_plain_zstd', {
  columns: flux, rows: 9, rowGroupSize: 4, codec: pw.Compression.ZSTD, dictionary: false,
  dictionaryLimit: 1 << 20, pageLimit: 700, wantDictionary: false, wantPlain: true,
  wantFallback: false,
})

// dlbench train on a dataset of such files, as DLIO would have left it.
if (dlbench) {
  const data = join(scratch, 'dlio_dataset')
  const out = join(scratch, 'dlio_train_out')
  rmSync(data, { recursive: true, force: true })
  rmSync(out, { recursive: true, force: true })
  mkdirSync(join(data, 'train'), { recursive: true })
  const files = 4
  const rows = 6
  for (let i = 0; i < files; i++) {
    writeFile(join(data, 'train', `img_${i}_of_${files}.parquet`), {
      columns: flux, rows, rowGroupSize: 4, codec: 'SNAPPY', encoding: 'RLE_DICTIONARY',
      offsetIndex: false, pageSize: 1000,
    })
  }
  const sampleBytes = flux.reduce((s, c) => s + c.size * itemsize[c.dtype], 0)
  const columns = flux.map(c => `{name: ${c.name}, dtype: ${c.dtype}, size: ${c.size}}`).join(', ')
  execFileSync(dlbench, ['run', trainYaml, '--output', out, '-q',
    `++workload.dataset.data_folder=${data}`, '++workload.dataset.format=parquet',
    `++workload.dataset.num_files_train=${files}`, '++workload.dataset.num_files_eval=0',
    `++workload.dataset.num_samples_per_file=${rows}`, `++workload.dataset.record_length_bytes=${sampleBytes}`,
    `++workload.dataset.parquet.columns=[${columns}]`, '++workload.dataset.parquet.row_group_size=4',
    '++workload.workflow.generate_data=False', '++workload.workflow.evaluation=False'],
  { stdio: 'inherit' })
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))
  const find = (o, key) => {
    if (o && typeof o === 'object') {
      if (key in o) return o[key]
      for (const v of Object.values(o)) {
        const got = find(v, key)
        if (got !== undefined) return got
      }
    }
    return undefined
  }
  const decoded = find(summary, 'train_decoded_bytes')
  const skipped = find(summary, 'train_samples_skipped_on_error')
  const want = 2 * files * rows * sampleBytes  // 2 epochs (tiny_train.yaml)
  check(decoded === want, `dlbench train: train_decoded_bytes ${decoded}, expected ${want}`)
  check(!skipped, `dlbench train: ${skipped} samples skipped`)
  console.log(`dlbench train: ${decoded} bytes decoded from ${files} hyparquet-writer files`)
}

finish('parquet_read_interop')
