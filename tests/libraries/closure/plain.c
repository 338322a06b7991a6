/* A library without GPU code: nothing to convert. */
int plain_offset(void)
{
	return 3;
}
