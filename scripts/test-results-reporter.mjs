// A second reporter for Node's test runner, beside the spec reporter people read: one JSON
// line per failed test and one with the run's counts, written to a file that
// scripts/test.mjs reads once the pass is over, to end `npm test` with one summary of all
// its passes. Node's reporters emit a file's events in declaration order, each test's
// `test:start` (and its parents') before its result, so a stack per file of the names
// seen starting gives a failure its suite path.
const COUNTS = new Set(['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms'])

export default async function * testResults (source) {
  const started = new Map()
  const counts = {}
  for await (const { type, data } of source) {
    if (type === 'test:start') {
      const stack = started.get(data.file) ?? []
      stack.length = data.nesting
      stack.push(data.name)
      started.set(data.file, stack)
    } else if (type === 'test:fail') {
      const error = data.details?.error
      // A suite "fails" when one of its tests did: that test is the failure to name.
      if (error?.failureType === 'subtestsFailed') continue
      const parents = (started.get(data.file) ?? []).slice(0, data.nesting)
      const cause = error?.cause instanceof Error ? error.cause.message : error?.cause ?? error?.message
      yield JSON.stringify({
        failed: [...parents, data.name],
        file: data.file,
        suite: data.details?.type === 'suite',
        failureType: error?.failureType,
        // An assertion's message spans lines ("Expected values to be strictly equal:", the values).
        message: String(cause ?? '').split('\n').slice(0, 4).join(' ')
      }) + '\n'
    } else if (type === 'test:diagnostic' && data.nesting === 0 && data.file === undefined) {
      // The runner's closing lines: "tests 812", "pass 810", ... "duration_ms 1234.5".
      const [name, value] = String(data.message).split(' ')
      if (COUNTS.has(name) && value !== undefined && Number.isFinite(Number(value))) counts[name] = Number(value)
    }
  }
  yield JSON.stringify({ counts }) + '\n'
}
