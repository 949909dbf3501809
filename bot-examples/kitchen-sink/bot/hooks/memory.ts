import { memoryHook } from "bdk/memory";

// Each customer's earlier questions come back in their later conversations.
export default memoryHook({ scope: "principal", maxNotes: 10 });
