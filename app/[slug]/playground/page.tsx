import { PlaygroundPage } from "../../../components/playground/PlaygroundPage.tsx";

/** The client app reads its API base from the URL, so the slug param is not needed here. */
export default PlaygroundPage;
