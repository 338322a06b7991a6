/* A part without GPU code, as cuDNN's libcudnn_graph.so.9 is. */
int graph_version(void)
{
	return 91900;
}
