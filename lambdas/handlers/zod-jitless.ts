/**
 * zod without its eval-compiled fast path, in every Lambda function: imported for its effect by
 * each entry, before anything parses. On an object schema's first parse zod generates a function
 * for it (`new Function`) and compiles it. A function instance parses each of its schemas a few
 * times, where generating and compiling costs more than it saves: counted under callgrind, 17–31
 * M instructions of a cold start (the MCP function's first `check_availability` 1.263 → 1.232 G,
 * each booking step 2–3 %), against 0.5 µs more per parse of a five-field object once warm
 * (0.32 → 0.83 µs, Node 24). The environment's parse asks for the same on its own
 * (runtime/environment.ts), for the embedded runtime too.
 */
import { config } from 'zod';

config({ jitless: true });
