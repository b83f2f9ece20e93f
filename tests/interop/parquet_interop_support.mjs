// What the Parquet interop scripts share (parquet_interop.mjs, parquet_read_interop.mjs): their
// arguments, the npm packages the fixture interop.parquet_setup installed into the build tree,
// the failure list and the final verdict, and binary16 decoding.
//
//   node <script> <interop_tool> <folder with node_modules> <scratch folder> [more...]
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

// The script's arguments: interop_tool, the scratch folder (created) and the rest; `require`
// resolves and loads packages from the npm folder (CommonJS), `load` imports them (ES modules).
export function interopArgs() {
  const [tool, npmFolder, scratch, ...rest] = process.argv.slice(2)
  const require = createRequire(join(npmFolder, 'package.json'))
  mkdirSync(scratch, { recursive: true })
  return { tool, scratch, rest, require, load: name => import(require.resolve(name)) }
}

const failures = []

// Records (and prints) a failure unless `condition` holds.
export function check(condition, message) {
  if (!condition) {
    failures.push(message)
    console.log('FAIL:', message)
  }
}

// Prints "<script>: OK", or the failure count and exits 1.
export function finish(script) {
  if (failures.length) {
    console.log(`${script}: ${failures.length} failure(s)`)
    process.exit(1)
  }
  console.log(`${script}: OK`)
}

// IEEE 754 binary16 bits to a number, written here (not a package's).
export function half(bits) {
  const sign = bits & 0x8000 ? -1 : 1
  const exponent = (bits >> 10) & 0x1f
  const fraction = bits & 0x3ff
  if (exponent === 0) return sign * fraction * 2 ** -24
  if (exponent === 31) return fraction ? NaN : sign * Infinity
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15)
}
