// npm run build's second step: /embed, the viewer page embedders load, built on its own into
// the back office's build folder (see embedConfig in vite.config.ts).
import { embedConfig } from './vite.config';

export default embedConfig;
