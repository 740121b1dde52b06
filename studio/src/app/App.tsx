export function App() {
  return <main><h1>Verdict Studio</h1></main>;
}
