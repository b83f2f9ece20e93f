// Interop of dlbench's Parquet writer with an independent reader: hyparquet (npm, pure
// JavaScript, installed into the build tree by the test fixture interop.parquet_setup).
//
//   node parquet_interop.mjs <interop_tool> <folder with node_modules/hyparquet> <scratch folder>
//
// For each case, interop_tool writes a Parquet file and the payload bytes it was asked to store
// (the content generator's bytes: row r's columns back to back). hyparquet reads the file, and
// every value of every row and column must equal the payload's value of that element: integers
// exactly, floats bit for bit (a NaN only has to be a NaN: converting a float to a JavaScript
// number may quiet a signalling NaN). Also checked: row count, row groups, the schema and that
// the file's column chunks name the codec asked for (gzip, snappy, zstd). hyparquet decompresses
// SNAPPY itself; GZIP goes through node's zlib and ZSTD through hyparquet-compressors (fzstd),
// so every page body is decoded by code other than dlbench's. Prints "parquet_interop: OK" or the
// mismatches.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'

import { check, finish, half, interopArgs } from './parquet_interop_support.mjs'

const { tool, scratch, load } = interopArgs()
const { parquetMetadata, parquetReadObjects } = await load('hyparquet')
const { compressors } = await load('hyparquet-compressors')

const itemsize = { int8: 1, uint8: 1, int16: 2, uint16: 2, float16: 2, int32: 4, uint32: 4,
  float32: 4, int64: 8, uint64: 8, float64: 8 }

// The element `i` of a column of `dtype` in `bytes` (a DataView over one row's column bytes).
function expected(view, dtype, i) {
  const o = i * itemsize[dtype]
  switch (dtype) {
    case 'int8': return view.getInt8(o)
    case 'uint8': return view.getUint8(o)
    case 'int16': return view.getInt16(o, true)
    case 'uint16': return view.getUint16(o, true)
    case 'int32': return view.getInt32(o, true)
    case 'uint32': return view.getUint32(o, true)
    case 'int64': return view.getBigInt64(o, true)
    case 'uint64': return view.getBigUint64(o, true)
    case 'float32': return view.getFloat32(o, true)
    case 'float64': return view.getFloat64(o, true)
    case 'float16': return half(view.getUint16(o, true))
  }
  throw new Error('dtype ' + dtype)
}

function same(got, want) {
  if (typeof want === 'bigint') return typeof got === 'bigint' && got === want
  if (Number.isNaN(want)) return typeof got === 'number' && Number.isNaN(got)
  return Object.is(got, want)  // a float's sign of zero counts too
}

function runCase(name, { columns, rows, rowGroup, codec, legacy }) {
  const path = join(scratch, name + '.parquet')
  const args = ['write', 'parquet', path, legacy ? legacy.dtype : 'uint8', String(rows)]
  const specs = legacy ? [{ name: 'data', dtype: legacy.dtype, size: legacy.dims[0] * legacy.dims[1] }]
    : columns
  if (legacy) args.push(...legacy.dims.map(String))
  for (const c of columns || []) args.push('--column', `${c.name}:${c.dtype}:${c.size}`)
  if (rowGroup) args.push('--row-group', String(rowGroup))
  if (codec) args.push('--' + codec)
  execFileSync(tool, args)
  const sampleBytes = specs.reduce((s, c) => s + c.size * itemsize[c.dtype], 0)
  const payloadPath = join(scratch, name + '.payload')
  execFileSync(tool, ['payload', payloadPath, String(rows * sampleBytes)])
  const payload = readFileSync(payloadPath)

  const file = readFileSync(path)
  const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength)
  const metadata = parquetMetadata(buffer)
  check(Number(metadata.num_rows) === rows, `${name}: ${metadata.num_rows} rows, expected ${rows}`)
  const groups = Math.ceil(rows / (rowGroup || 1024))
  check(metadata.row_groups.length === groups,
    `${name}: ${metadata.row_groups.length} row groups, expected ${groups}`)
  const codecs = new Set(metadata.row_groups.flatMap(g => g.columns.map(c => c.meta_data.codec)))
  check(codecs.size === 1 && codecs.has(codec ? codec.toUpperCase() : 'UNCOMPRESSED'),
    `${name}: codecs ${[...codecs]}`)
  const topLevel = metadata.schema[0].num_children
  check(topLevel === specs.length, `${name}: ${topLevel} columns, expected ${specs.length}`)

  return parquetReadObjects({
    file: buffer,
    compressors: {
      GZIP: (input, outputLength) => new Uint8Array(gunzipSync(input)),
      ZSTD: compressors.ZSTD,
    },
  }).then(objects => {
    check(objects.length === rows, `${name}: hyparquet returned ${objects.length} rows`)
    let values = 0
    for (let r = 0; r < objects.length; r++) {
      let offset = r * sampleBytes
      for (const c of specs) {
        const bytes = payload.subarray(offset, offset + c.size * itemsize[c.dtype])
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        offset += bytes.byteLength
        const got = objects[r][c.name]
        const list = c.size > 1 ? got : [got]
        if (!list || list.length !== c.size) {
          check(false, `${name}: row ${r} column ${c.name} has ${list && list.length} values`)
          continue
        }
        for (let i = 0; i < c.size; i++, values++) {
          const want = expected(view, c.dtype, i)
          if (!same(list[i], want)) {
            check(false, `${name}: row ${r} column ${c.name}[${i}] = ${list[i]}, wrote ${want}`)
            break
          }
        }
      }
    }
    console.log(`${name}: ${objects.length} rows, ${values} values equal`)
  })
}

await runCase('flux_like', {
  columns: [
    { name: 't5_encodings', dtype: 'float32', size: 300000 },  // > 1 MiB rows: a page per row
    { name: 'clip_encodings', dtype: 'float32', size: 409 },
    { name: 'timestamp', dtype: 'float32', size: 7 },
  ],
  rows: 6,
  rowGroup: 4,
})
await runCase('every_type_gzip', {
  columns: ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float16',
    'float32', 'float64'].map((dtype, i) => ({ name: 'c_' + dtype, dtype, size: 1 + (i % 4) * 3 }))
    .concat([{ name: 'scalar', dtype: 'float64', size: 1 }]),
  rows: 9,
  rowGroup: 5,
  codec: 'gzip',
})
for (const codec of ['snappy', 'zstd']) {
  await runCase('flux_like_' + codec, {
    columns: [
      { name: 't5_encodings', dtype: 'float32', size: 300000 },
      { name: 'clip_encodings', dtype: 'float32', size: 409 },
      { name: 'small', dtype: 'int8', size: 7 },
      { name: 'half', dtype: 'float16', size: 3 },
      { name: 'step', dtype: 'int64', size: 1 },
    ],
    rows: 5,
    rowGroup: 3,
    codec,
  })
}
await runCase('dlio_legacy_data_column', { rows: 3, legacy: { dtype: 'uint8', dims: [22, 22] } })

finish('parquet_interop')
