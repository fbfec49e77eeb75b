// The drawing threads' entry (run by src/work/pool.ts): a picture drawn (draw), a banner's
// or icon's preview (preview). Loaded on a thread's first picture, with the canvas library,
// the fonts and the assets, all kept for the thread's life.
import '../text/no-system-fonts.js'
import { workerData } from 'node:worker_threads'
import { onQuiet, threadTask } from '../../work/thread.js'
import type { AssetKind } from '../assets/asset-catalog.js'
import { createDrawer, type Drawn } from './drawer.js'
import type { DrawJob } from './render-job.js'

const drawer = createDrawer({ dataDir: (workerData as { dataDir: string }).dataDir })
// The idle canvases go when the pool has been quiet.
onQuiet(() => drawer.quiet())

/** Encoded bytes, or a GIF's or an animation's frames for the main thread to encode. */
export const draw = threadTask<DrawJob, Drawn>(async (job) => await drawer.draw(job))

/** A banner or icon as PNG (its public preview): drawn where the canvas lives. */
export const preview = threadTask<{ asset: AssetKind, name: string }, Uint8Array>(async ({ asset, name }) => await drawer.preview(asset, name))
