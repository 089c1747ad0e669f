/**
 * The floor on the protected path: raw undici (`undici.ts`) with `Authorization: Bearer <token>`
 * on every request, as a client given the token sends it. No 401 ever comes back.
 */
import { BEARER_TOKEN } from '../protocol.ts';
import { rawUndici } from './undici.ts';

export default rawUndici({ authorization: `Bearer ${BEARER_TOKEN}` });
