/* A shared object without the dlasim_plugin symbol. */
int coll_no_descriptor_answer(void)
{
	return 42;
}
