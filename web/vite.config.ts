/**
 * Vite build of the web console (issue #17): served by the service at /console/ (src/http/console-static.ts).
 * Element Plus components are imported where a template uses them, with their CSS (unplugin-vue-components), and
 * ECharts is tree-shaken (echarts/core and the parts a chart uses); each page is its own chunk (router.ts).
 * `npm run dev:web` serves it with hot reload, sending /api to the service on PORT (default 3000).
 */
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import Components from 'unplugin-vue-components/vite';
import { ElementPlusResolver } from 'unplugin-vue-components/resolvers';

export default defineConfig({
  base: '/console/',
  plugins: [vue(), Components({ resolvers: [ElementPlusResolver({ importStyle: 'css' })], dts: false })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    modulePreload: { polyfill: false },
  },
  server: { proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` } },
});
