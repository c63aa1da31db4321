import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
} from 'chart.js';

// Only what the charts use (lines for runs and scaling, bars for comparisons), so the bundle
// carries no unused controllers. Every chart imports Chart from here, never from chart.js.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  LogarithmicScale,
  Filler,
  Legend,
  Tooltip,
);

export { Chart };
