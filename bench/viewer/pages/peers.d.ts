// model-viewer's self-contained build registers <model-viewer> and exports nothing we use.
declare module '@google/model-viewer/dist/model-viewer.min.js';
