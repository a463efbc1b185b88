/** The web console of the shift-reporting service: Vue 3, Element Plus, ECharts; served at /console/. */
import { createApp } from 'vue';
import App from './App.vue';
import { router } from './router';
import { onSessionLost } from './session';
import './styles.css';

onSessionLost((path) => void router.push(path));
createApp(App).use(router).mount('#app');
